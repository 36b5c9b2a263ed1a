import { el, formatNumber, svg } from './dom.js';

/**
 * Small SVG charts drawn with DOM calls (no library, nothing inline that the CSP would block):
 * a line chart for daily series and a horizontal bar chart for top lists. Each is drawn at the
 * width of its box (one SVG unit = one CSS pixel, so text stays readable on a phone and on a wide
 * screen) and redrawn when the box changes width.
 */

/** A step of 1, 2 or 5 × 10^n with at most `ticks` steps up to `value`. */
function niceScale(value, ticks = 5) {
  if (value <= 0) return { top: 1, step: 0.25 };
  const raw = value / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const integerStep = value >= ticks ? Math.max(1, Math.round(step)) : step;
  return { top: Math.ceil(value / integerStep) * integerStep, step: integerStep };
}

/** Draws `draw(width)` into a box now and again whenever the box's width changes. */
export function responsiveChart(className, draw) {
  const box = el('div', { class: `chart ${className}` });
  let drawnWidth = 0;
  const render = () => {
    const width = Math.floor(box.clientWidth);
    if (width <= 0 || width === drawnWidth) return;
    drawnWidth = width;
    box.replaceChildren(...[draw(width)].flat());
  };
  new ResizeObserver(render).observe(box);
  return box;
}

/** series: [{ name, values: number[] }] over `labels` (one per day). */
export function lineChart({ title, labels, series, formatLabel = String }) {
  const draw = (width) => {
    const height = Math.max(180, Math.min(300, Math.round(width * 0.38)));
    const pad = { top: 12, right: 16, bottom: 26, left: 40 };
    const innerW = width - pad.left - pad.right;
    const innerH = height - pad.top - pad.bottom;
    const { top, step } = niceScale(Math.max(0, ...series.flatMap((s) => s.values)));
    const x = (i) => pad.left + (labels.length <= 1 ? innerW / 2 : (i * innerW) / (labels.length - 1));
    const y = (v) => pad.top + innerH - (v / top) * innerH;

    const root = svg('svg', {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': title,
    });
    root.append(svg('title', {}, title));
    for (let value = 0; value <= top + step / 2; value += step) {
      root.append(
        svg('line', {
          class: value === 0 ? 'axis' : 'grid-line',
          x1: pad.left,
          x2: width - pad.right,
          y1: y(value),
          y2: y(value),
        }),
        svg('text', { x: pad.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, formatNumber(value)),
      );
    }
    // Room for about one label per 70 px; the last day always gets one, so its neighbours step aside.
    const every = Math.max(1, Math.ceil(labels.length / Math.max(2, Math.floor(innerW / 70))));
    const lastX = x(labels.length - 1);
    labels.forEach((label, i) => {
      const last = i === labels.length - 1;
      if (!last && (i % every !== 0 || lastX - x(i) < 60)) return;
      const anchor = last && labels.length > 1 ? 'end' : i === 0 && labels.length > 1 ? 'start' : 'middle';
      root.append(svg('text', { x: x(i), y: height - 6, 'text-anchor': anchor }, formatLabel(label)));
    });
    series.forEach((s, index) => {
      const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      root.append(svg('polyline', { class: `series-${index}`, points }));
      s.values.forEach((v, i) => {
        root.append(
          svg(
            'circle',
            {
              class: `dot-${index}`,
              cx: x(i).toFixed(1),
              cy: y(v).toFixed(1),
              r: innerW / labels.length < 8 ? 1.5 : 3,
            },
            svg('title', {}, `${formatLabel(labels[i])}: ${formatNumber(v)} ${s.name}`),
          ),
        );
      });
    });
    return root;
  };
  const legend = el(
    'div',
    { class: 'legend' },
    series.map((s, i) => el('span', {}, el('span', { class: `swatch swatch-${i}` }), s.name)),
  );
  return el('div', {}, responsiveChart('line', draw), legend);
}

/** items: [{ label, value }], largest first. */
export function barChart({ title, items }) {
  return responsiveChart('bars', (width) => {
    const rowH = 26;
    const labelW = Math.min(180, Math.round(width * 0.38));
    const valueW = 48;
    const height = Math.max(rowH, items.length * rowH) + 4;
    const max = Math.max(1, ...items.map((item) => item.value));
    const maxChars = Math.max(6, Math.floor(labelW / 7.5));
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': title,
    });
    root.append(svg('title', {}, title));
    items.forEach((item, i) => {
      const top = i * rowH + 2;
      const barW = Math.max(2, ((width - labelW - valueW) * item.value) / max);
      const label = item.label.length > maxChars ? `${item.label.slice(0, maxChars - 1)}…` : item.label;
      root.append(
        svg('text', { class: 'bar-label', x: 0, y: top + 16 }, label, svg('title', {}, item.label)),
        svg(
          'rect',
          { class: 'bar', x: labelW, y: top + 5, width: barW.toFixed(1), height: rowH - 10, rx: 3 },
          svg('title', {}, `${item.label}: ${formatNumber(item.value)}`),
        ),
        svg('text', { x: labelW + barW + 6, y: top + 16 }, formatNumber(item.value)),
      );
    });
    return root;
  });
}
