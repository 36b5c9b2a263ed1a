import { BREAKDOWNS, breakdownPanels, conversionPanel, seconds } from './analytics-tables.js';
import { api } from './api.js';
import { barChart, lineChart } from './charts.js';
import { $, clear, el, formatDay, formatNumber, showState } from './dom.js';

/**
 * GET /admin/api/analytics (the shape of GET /api/analytics/stats): key figures, the daily chart,
 * the top lists, the breakdowns and the conversion table, for a range and any filters; the events
 * and every list export as CSV (GET /api/analytics/export).
 */

const FILTER_LABELS = {
  page: 'Page',
  entry_page: 'Entry page',
  exit_page: 'Exit page',
  source: 'Source',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  country: 'Country',
  device: 'Device',
  browser: 'Browser',
  os: 'Operating system',
};

const EXPORTS = [
  ['events', 'Events'],
  ['pages', 'Top pages'],
  ['countries', 'Countries'],
  ['eventTypes', 'Event types'],
  ['referrers', 'Referrers'],
  ...BREAKDOWNS.map((b) => [b.list, b.title]),
  ['conversionsBySource', 'Conversions by source'],
  ['conversionsByCampaign', 'Conversions by campaign'],
  ['conversionsByEntryPage', 'Conversions by entry page'],
  ['timeseries', 'Daily series'],
];

/** The filters applied, by query parameter name. */
const filters = new Map();

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

function range() {
  const days = Number($('#analytics-range select').value) || 30;
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  return { from: dayString(from), to: dayString(to) };
}

function showChips(app) {
  const chips = clear($('#analytics-chips'));
  for (const [name, value] of filters) {
    chips.append(
      el(
        'span',
        { class: 'chip', 'data-filter': name },
        `${FILTER_LABELS[name] ?? name}: ${value}`,
        el(
          'button',
          {
            type: 'button',
            class: 'link',
            'aria-label': `Remove the filter ${FILTER_LABELS[name] ?? name}`,
            onclick: () => {
              filters.delete(name);
              void showAnalytics(app);
            },
          },
          '×',
        ),
      ),
    );
  }
}

function kpis(stats) {
  return el(
    'div',
    { class: 'kpis wide' },
    [
      ['Events', formatNumber(stats.totalEvents)],
      ['Visitors', formatNumber(stats.uniqueVisitors)],
      ['Visits', formatNumber(stats.visits)],
      ['Page views', formatNumber(stats.pageviews)],
      ['Bounce rate', `${stats.bounceRate}%`],
      ['Visit duration', seconds(stats.visitDuration)],
      ['Time on page', seconds(stats.timeOnPage)],
      ['Conversions', formatNumber(stats.conversions)],
      ['Conversion rate', `${stats.conversionRate}%`],
      ['Pages', formatNumber(stats.uniquePages)],
      ['Bots dropped', formatNumber(stats.botsDropped)],
    ]
      .filter(([, value]) => value !== undefined)
      .map(([label, value]) => el('div', { class: 'kpi' }, el('strong', {}, value), label)),
  );
}

export async function showAnalytics(app) {
  const stateNode = $('#analytics-state');
  const body = clear($('#analytics-body'));
  if (!app.features.analytics) {
    showState(stateNode, 'Analytics is not installed on this server yet, so there is nothing to chart.');
    return;
  }
  showChips(app);
  showState(stateNode, 'Loading analytics…');
  const onFilter = (name, value) => {
    filters.set(name, value);
    void showAnalytics(app);
  };
  try {
    const stats = await api.get('/admin/api/analytics', {
      ...range(),
      limit: 10,
      ...Object.fromEntries(filters),
    });
    showState(stateNode, stats.totalEvents ? null : 'No events were recorded in this period.');
    const series = stats.timeseries ?? [];
    body.append(
      kpis(stats),
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
                { name: 'events', values: series.map((point) => point.events ?? 0) },
                { name: 'visitors', values: series.map((point) => point.visitors ?? 0) },
              ],
            })
          : empty('No daily data.'),
      ),
      ranked('Top pages', stats.topPages, (item) => item.page ?? '(unknown)'),
      ranked('Countries', stats.topCountries, (item) => countryLabel(item.country)),
      ranked('Event types', stats.eventTypes, (item) => item.type ?? '(unknown)'),
      ranked('Referrers', stats.topReferrers, (item) => item.referrer ?? 'Direct'),
      conversionPanel(stats, onFilter),
      ...breakdownPanels(stats, onFilter),
    );
  } catch (error) {
    app.fail(error, stateNode);
  }
}

async function exportCsv(app, report) {
  const stateNode = $('#analytics-state');
  try {
    const blob = await api.download('/api/analytics/export', {
      format: 'csv',
      report,
      ...range(),
      ...Object.fromEntries(filters),
    });
    const link = el('a', { href: URL.createObjectURL(blob), download: `analytics-${report}.csv` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  } catch (error) {
    app.fail(error, stateNode);
  }
}

export function initAnalytics(app) {
  $('#analytics-range select').addEventListener('change', () => void showAnalytics(app));
  $('#analytics-filter-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = form.elements.value.value.trim();
    if (!value) return;
    filters.set(form.elements.name.value, value);
    form.elements.value.value = '';
    void showAnalytics(app);
  });
  const reports = $('#analytics-export select');
  for (const [value, label] of EXPORTS) reports.append(el('option', { value }, label));
  $('#analytics-export').addEventListener('submit', (event) => {
    event.preventDefault();
    void exportCsv(app, reports.value);
  });
}
