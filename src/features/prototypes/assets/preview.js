// The prototype preview page's behaviour (served as a file: the page's CSP allows no inline script).
// Follows generate-stream with EventSource and swaps the progress view for the prototype.
(() => {
  const root = document.getElementById('preview');
  if (!root) return;
  const data = root.dataset;
  const view = (name) => root.querySelector(`[data-view="${name}"]`);
  let source = null;

  function show(name) {
    for (const section of root.querySelectorAll('[data-view]'))
      section.hidden = section.dataset.view !== name;
    root.dataset.state = name === 'complete' ? 'completed' : name === 'failed' ? 'failed' : 'generating';
  }

  function showProgress(payload) {
    const progress = view('progress');
    const bar = progress.querySelector('progress');
    bar.value = payload.percent;
    bar.textContent = `${payload.percent}%`;
    progress.querySelector('[data-percent]').textContent = `${payload.percent}%`;
    progress.querySelector('[data-message]').textContent = payload.message;
    let reached = false;
    const items = [...progress.querySelectorAll('[data-step]')];
    const current = items.findIndex((li) => li.dataset.step === payload.step);
    items.forEach((li, i) => {
      li.classList.toggle('done', current >= 0 && i < current);
      li.classList.toggle('active', i === current);
      if (i === current) reached = true;
    });
    if (!reached && payload.step === 'rendering') items.at(-1)?.classList.add('active');
    show('progress');
  }

  function showComplete(payload) {
    if (!payload.documentUrl) {
      // A hosted demo (v0): the server renders the frame with the demo's origin allowed.
      window.location.reload();
      return;
    }
    const frame = view('complete');
    const src = `${data.documentPath}?v=${encodeURIComponent(payload.attempt)}`;
    // No allow-same-origin, no allow-scripts: the prototype gets an opaque origin and runs no code.
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', '');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.setAttribute('title', data.frameTitle);
    iframe.src = src;
    frame.querySelector('.stage').replaceChildren(iframe);
    frame.querySelector('[data-open]').setAttribute('href', src);
    show('complete');
  }

  function showFailed(message) {
    const failed = view('failed');
    failed.querySelector('[data-failed-message]').textContent = message;
    const button = failed.querySelector('[data-retry]');
    button.disabled = false;
    if (button.dataset.label) button.textContent = button.dataset.label;
    show('failed');
  }

  function connect() {
    source?.close();
    source = new EventSource(data.streamPath);
    source.addEventListener('progress', (event) => showProgress(JSON.parse(event.data)));
    source.addEventListener('complete', (event) => {
      source.close();
      showComplete(JSON.parse(event.data));
    });
    source.addEventListener('error', (event) => {
      // A server-sent `error` carries data; a dropped connection does not (EventSource reconnects
      // by itself with Last-Event-ID, and the stream resumes where it was).
      if (!event.data) return;
      const payload = JSON.parse(event.data);
      if (payload.retrying) {
        view('progress').querySelector('[data-message]').textContent = payload.message || data.msgRetrying;
        return;
      }
      source.close();
      showFailed(payload.code === 'RATE_LIMITED' ? data.msgQuota : payload.message || data.msgFailed);
    });
  }

  async function retry(button) {
    button.disabled = true;
    button.dataset.label ??= button.textContent;
    button.textContent = data.msgRestarting;
    try {
      const response = await fetch(data.triggerPath, {
        method: 'POST',
        headers: { accept: 'application/json' },
      });
      if (response.status === 429) return showFailed(data.msgQuota);
      if (!response.ok) return showFailed(data.msgFailed);
      showProgress({ step: 'queued', percent: 0, message: data.msgRestarting });
      connect();
    } catch {
      showFailed(data.msgFailed);
    }
  }

  root.addEventListener('click', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    if (target.matches('[data-retry]')) void retry(target);
    if (target.matches('[data-width]')) {
      const iframe = root.querySelector('.stage iframe');
      if (iframe) iframe.style.width = target.dataset.width;
      for (const b of root.querySelectorAll('[data-width]')) b.classList.toggle('on', b === target);
    }
  });

  if (data.state === 'generating') connect();
})();
