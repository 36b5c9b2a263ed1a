import { el, formatNumber } from './dom.js';

/**
 * The analytics breakdowns as tables (Plausible's columns: visitors, visits, bounce rate, visit
 * duration, conversions and conversion rate). A row's value is a button that filters the whole report
 * by it; `null` values (direct, unknown, untagged) filter by `(none)`.
 */

export const NONE = '(none)';

const CATEGORY_LABELS = {
  search: 'Search',
  social: 'Social',
  ai: 'AI assistant',
  email: 'E-mail',
  referral: 'Referral',
  campaign: 'Campaign',
  direct: 'Direct',
};

export function seconds(value) {
  const s = Math.round(value ?? 0);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** Breakdowns of the stats answer: its key, the row's value key, the filter it sets, and a title. */
export const BREAKDOWNS = [
  { list: 'sources', key: 'source', filter: 'source', title: 'Sources', none: 'Direct / None' },
  { list: 'utmSources', key: 'utmSource', filter: 'utm_source', title: 'UTM sources' },
  { list: 'utmMediums', key: 'utmMedium', filter: 'utm_medium', title: 'UTM mediums' },
  { list: 'utmCampaigns', key: 'utmCampaign', filter: 'utm_campaign', title: 'UTM campaigns' },
  { list: 'devices', key: 'device', filter: 'device', title: 'Devices', none: 'Unknown' },
  { list: 'browsers', key: 'browser', filter: 'browser', title: 'Browsers', none: 'Unknown' },
  { list: 'operatingSystems', key: 'os', filter: 'os', title: 'Operating systems', none: 'Unknown' },
  { list: 'entryPages', key: 'page', filter: 'entry_page', title: 'Entry pages' },
  { list: 'exitPages', key: 'page', filter: 'exit_page', title: 'Exit pages' },
];

export const CONVERSIONS = [
  { list: 'bySource', key: 'source', filter: 'source', title: 'Source', none: 'Direct / None' },
  { list: 'byCampaign', key: 'utmCampaign', filter: 'utm_campaign', title: 'Campaign' },
  { list: 'byEntryPage', key: 'page', filter: 'entry_page', title: 'Entry page' },
];

function valueCell(spec, row, onFilter) {
  const value = row[spec.key];
  const label = value ?? spec.none ?? NONE;
  const button = el(
    'button',
    {
      type: 'button',
      class: 'link filter-by',
      title: `Filter the report by ${spec.title.toLowerCase()}: ${label}`,
      onclick: () => onFilter(spec.filter, value ?? NONE),
    },
    label,
  );
  return el(
    'td',
    { 'data-label': spec.title },
    button,
    row.category && row.category !== 'direct'
      ? el('span', { class: 'muted' }, ` ${CATEGORY_LABELS[row.category] ?? ''}`)
      : null,
  );
}

const numberCell = (label, text) => el('td', { 'data-label': label, class: 'num' }, text);

function visitRow(spec, row, onFilter) {
  return el(
    'tr',
    {},
    valueCell(spec, row, onFilter),
    numberCell('Visitors', formatNumber(row.visitors)),
    numberCell('Visits', formatNumber(row.visits)),
    numberCell('Bounce rate', `${row.bounceRate}%`),
    numberCell('Visit duration', seconds(row.visitDuration)),
    numberCell('Conversions', formatNumber(row.conversions)),
    numberCell('Conversion rate', `${row.conversionRate}%`),
  );
}

function table(spec, rows, onFilter, head) {
  return el(
    'div',
    { class: 'table-wrap' },
    el(
      'table',
      { class: 'table responsive analytics-table', 'data-breakdown': spec.list },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...[head, 'Visitors', 'Visits', 'Bounce', 'Duration', 'Conv.', 'CR'].map((h) =>
            el('th', { scope: 'col' }, h),
          ),
        ),
      ),
      el(
        'tbody',
        {},
        rows.map((row) => visitRow(spec, row, onFilter)),
      ),
    ),
  );
}

/** One panel per breakdown. */
export function breakdownPanels(stats, onFilter) {
  return BREAKDOWNS.map((spec) => {
    const rows = stats[spec.list] ?? [];
    return el(
      'section',
      { class: 'panel breakdown', 'data-panel': spec.list },
      el('h2', {}, spec.title),
      rows.length
        ? table(spec, rows, onFilter, spec.title)
        : el('p', { class: 'muted' }, 'Nothing recorded in this period.'),
    );
  });
}

/** The conversion table: leads and contact-us messages by source, campaign and entry page. */
export function conversionPanel(stats, onFilter) {
  const by = stats.conversionsBy ?? {};
  const any = CONVERSIONS.some((spec) => (by[spec.list] ?? []).length > 0);
  return el(
    'section',
    { class: 'panel wide', id: 'analytics-conversions' },
    el(
      'h2',
      {},
      `Conversions (leads and contact-us messages): ${formatNumber(stats.conversions ?? 0)}, ${stats.conversionRate ?? 0}% of visits`,
    ),
    any
      ? CONVERSIONS.filter((spec) => (by[spec.list] ?? []).length > 0).map((spec) =>
          table(spec, by[spec.list], onFilter, spec.title),
        )
      : el('p', { class: 'muted' }, 'No conversion in this period.'),
  );
}
