/* The service's first-party tracker (GET /api/analytics/script.js; docs/analytics.md). No cookies, no storage. */
((w, d, h) => {
  const me = d.currentScript;
  const api = me?.getAttribute('data-api') || new URL('/api/analytics/track', me?.src || location.href).href;
  const landingReferrer = d.referrer || null;
  let page = null;
  let path = null;
  let shownAt = 0;
  let visibleMs = 0;

  function post(body) {
    const text = JSON.stringify(body);
    try {
      if (navigator.sendBeacon?.(api, text)) return;
    } catch {}
    w.fetch?.(api, {
      method: 'POST',
      body: text,
      keepalive: true,
      credentials: 'omit',
      headers: { 'Content-Type': 'text/plain' },
    }).catch(() => {});
  }

  function track(type, properties, options) {
    const body = { type, url: location.href };
    if (properties) body.properties = properties;
    if (options?.interactive === false) body.interactive = false;
    post(body);
  }

  // Time the page was visible, sent when it is hidden or left (an SPA navigation).
  function engagement() {
    if (shownAt) {
      visibleMs += Date.now() - shownAt;
      shownAt = d.visibilityState === 'visible' ? Date.now() : 0;
    }
    if (page && visibleMs > 0) post({ type: 'engagement', url: page, engagementMs: visibleMs });
    visibleMs = 0;
  }

  // A page view when the path changes, as Plausible counts them: an anchor (`#pricing`) or a query
  // changed in place is the same page.
  function pageview() {
    if (path === location.pathname) return;
    path = location.pathname;
    engagement();
    const referrer = page || landingReferrer;
    page = location.href;
    shownAt = d.visibilityState === 'visible' ? Date.now() : 0;
    post({ type: 'page_view', url: page, referrer, title: d.title });
  }

  d.addEventListener('visibilitychange', () => {
    if (d.visibilityState === 'hidden') engagement();
    else shownAt = Date.now();
  });

  const push = h.pushState;
  h.pushState = function (...args) {
    push.apply(this, args);
    pageview();
  };
  w.addEventListener('popstate', pageview);

  function outbound(event) {
    const link = event.target?.closest?.('a[href]');
    if (link && /^https?:$/.test(link.protocol) && link.host !== location.host) {
      track('outbound_link', { url: link.origin + link.pathname });
    }
  }
  d.addEventListener('click', outbound, true);
  d.addEventListener('auxclick', (event) => event.button === 1 && outbound(event), true);

  // The visit's context for the site's forms: nothing personal, only where the visit came from.
  const context = () => ({ url: location.href, referrer: landingReferrer });
  d.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!form.hasAttribute?.('data-analytics-context')) return;
      let input = form.querySelector('input[name="analyticsContext"]');
      if (!input) {
        input = d.createElement('input');
        input.type = 'hidden';
        input.name = 'analyticsContext';
        form.appendChild(input);
      }
      input.value = JSON.stringify(context());
    },
    true,
  );

  const queued = w.agencyAnalytics?.q || [];
  w.agencyAnalytics = track;
  track.context = context;
  // The page view first: a visit takes its source from its first event, and only it carries the referrer.
  pageview();
  for (const args of queued) track(...args);
})(window, document, history);
