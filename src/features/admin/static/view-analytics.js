import { api } from './api.js';
import { barChart, lineChart } from './charts.js';
import { $, clear, el, formatDay, formatNumber, showState } from './dom.js';

/** Charts of GET /admin/api/analytics (the shape of GET /api/analytics/stats). */

const countryNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return null;
  }
})();

function countryLabel(code) {
  if (!code) return 'Unknown';
  try {
    return countryNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

const dayString = (date) => date.toISOString().slice(0, 10);
const panel = (title, ...children) => el('section', { class: 'panel' }, el('h2', {}, title), ...children);
const empty = (text) => el('p', { class: 'muted' }, text);

function ranked(title, items, label) {
  if (!items?.length) return panel(title, empty('Nothing recorded in this period.'));
  return panel(
    title,
    barChart({ title, items: items.map((item) => ({ label: label(item), value: item.count })) }),
  );
}

export async function showAnalytics(app) {
  const stateNode = $('#analytics-state');
  const body = clear($('#analytics-body'));
  if (!app.features.analytics) {
    showState(stateNode, 'Analytics is not installed on this server yet, so there is nothing to chart.');
    return;
  }
  const days = Number($('#analytics-range select').value) || 30;
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  showState(stateNode, 'Loading analytics…');
  try {
    const stats = await api.get('/admin/api/analytics', {
      from: dayString(from),
      to: dayString(to),
      limit: 10,
    });
    showState(stateNode, stats.totalEvents ? null : 'No events were recorded in this period.');
    const series = stats.timeseries ?? [];
    body.append(
      el(
        'div',
        { class: 'kpis wide' },
        [
          ['Events', stats.totalEvents],
          ['Visitors', stats.uniqueVisitors],
          ['Pages', stats.uniquePages],
          ['Bots dropped', stats.botsDropped],
        ]
          .filter(([, value]) => typeof value === 'number')
          .map(([label, value]) => el('div', { class: 'kpi' }, el('strong', {}, formatNumber(value)), label)),
      ),
      el(
        'section',
        { class: 'panel wide' },
        el('h2', {}, 'Daily visitors and events (page views and other events)'),
        series.length
          ? lineChart({
              title: 'Daily visitors and events',
              labels: series.map((point) => point.date),
              formatLabel: formatDay,
              series: [
                { name: 'events', values: series.map((point) => point.events ?? point.pageViews ?? 0) },
                { name: 'visitors', values: series.map((point) => point.visitors ?? 0) },
              ],
            })
          : empty('No daily data.'),
      ),
      ranked('Top pages', stats.topPages, (item) => item.page ?? '(unknown)'),
      ranked('Countries', stats.topCountries, (item) => countryLabel(item.country)),
      ranked('Event types', stats.eventTypes, (item) => item.type ?? '(unknown)'),
      ranked('Referrers', stats.topReferrers, (item) => item.referrer ?? 'Direct'),
    );
  } catch (error) {
    app.fail(error, stateNode);
  }
}

export function initAnalytics(app) {
  $('#analytics-range select').addEventListener('change', () => void showAnalytics(app));
}
