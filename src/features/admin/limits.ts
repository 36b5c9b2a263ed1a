/** Limits of the admin API: the schemas, the docs and the tests all import these. */
export const ADMIN_PAGE = {
  defaultLimit: 25,
  /** Larger `limit` values are capped to this (the response reports the limit applied). */
  maxLimit: 100,
  maxPage: 100_000,
} as const;

export const ADMIN_LIMITS = {
  /** Free-text search `q` over name, e-mail and company. */
  search: 200,
  /** Dead jobs listed per queue in the queues view. */
  deadJobsShown: 20,
  /** E-mails shown in one lead's detail. */
  leadEmails: 50,
  /** Outbox page size cap. */
  outboxMaxLimit: 100,
  /** Characters of an e-mail's text body sent to the page in lists (the detail sends it whole). */
  bodyPreview: 400,
} as const;

/** Sortable columns of the leads table (API names). */
export const LEAD_SORTS = [
  'createdAt',
  'updatedAt',
  'name',
  'email',
  'company',
  'status',
  'classification',
] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];
