import { el, formatNumber, svg } from './dom.js';

/**
 * Small SVG charts drawn with DOM calls (no library, nothing inline that the CSP would block):
 * a line chart for daily series and a horizontal bar chart for top lists.
 */

function niceMax(value) {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

/** series: [{ name, values: number[] }] over `labels` (one per day). */
export function lineChart({ title, labels, series, formatLabel = String }) {
  const width = 640;
  const height = 240;
  const pad = { top: 12, right: 12, bottom: 28, left: 44 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const x = (i) => pad.left + (labels.length <= 1 ? innerW / 2 : (i * innerW) / (labels.length - 1));
  const y = (v) => pad.top + innerH - (v / max) * innerH;

  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title });
  root.append(svg('title', {}, title));
  for (let t = 0; t <= 4; t++) {
    const value = (max * t) / 4;
    root.append(
      svg('line', {
        class: t === 0 ? 'axis' : 'grid-line',
        x1: pad.left,
        x2: width - pad.right,
        y1: y(value),
        y2: y(value),
      }),
      svg(
        'text',
        { x: pad.left - 6, y: y(value) + 4, 'text-anchor': 'end' },
        formatNumber(Math.round(value * 10) / 10),
      ),
    );
  }
  const every = Math.max(1, Math.ceil(labels.length / 8));
  labels.forEach((label, i) => {
    if (i % every !== 0 && i !== labels.length - 1) return;
    root.append(svg('text', { x: x(i), y: height - 8, 'text-anchor': 'middle' }, formatLabel(label)));
  });
  series.forEach((s, index) => {
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    root.append(svg('polyline', { class: `series-${index}`, points }));
    s.values.forEach((v, i) => {
      root.append(
        svg(
          'circle',
          { class: `dot-${index}`, cx: x(i), cy: y(v), r: labels.length > 45 ? 1.5 : 3 },
          svg('title', {}, `${formatLabel(labels[i])}: ${formatNumber(v)} ${s.name}`),
        ),
      );
    });
  });
  const legend = el(
    'div',
    { class: 'legend' },
    series.map((s, i) => el('span', {}, el('span', { class: `swatch swatch-${i}` }), s.name)),
  );
  return el('div', { class: 'chart' }, root, legend);
}

/** items: [{ label, value }], largest first. */
export function barChart({ title, items }) {
  const width = 640;
  const rowH = 26;
  const labelW = 210;
  const height = Math.max(rowH, items.length * rowH) + 4;
  const max = Math.max(1, ...items.map((item) => item.value));
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title });
  root.append(svg('title', {}, title));
  items.forEach((item, i) => {
    const top = i * rowH + 2;
    const barW = Math.max(2, ((width - labelW - 60) * item.value) / max);
    const label = item.label.length > 32 ? `${item.label.slice(0, 31)}…` : item.label;
    root.append(
      svg('text', { class: 'bar-label', x: 0, y: top + 16 }, label, svg('title', {}, item.label)),
      svg(
        'rect',
        { class: 'bar', x: labelW, y: top + 4, width: barW, height: rowH - 10, rx: 3 },
        svg('title', {}, `${item.label}: ${formatNumber(item.value)}`),
      ),
      svg('text', { x: labelW + barW + 6, y: top + 16 }, formatNumber(item.value)),
    );
  });
  return el('div', { class: 'chart' }, root);
}
