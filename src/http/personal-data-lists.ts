import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';
import { secretMatches } from './secrets.ts';

/**
 * The listings of personal data the spec leaves open (`GET /api/leads`, `GET /api/contact`, the
 * e-mail and phone of `GET /api/leads/{id}`). In production they need the admin key unless
 * PUBLIC_PERSONAL_DATA_LISTS=true; in development they stay open as the spec has them
 * (docs/security.md, "Personal data in production").
 */
export function mayReadPersonalData(c: Context<AppEnv>): boolean {
  const { config } = c.env.deps;
  if (config.privacy.personalDataLists === 'public') return true;
  return secretMatches(c.req.header('x-admin-api-key'), config.secrets.admin);
}

/** 401 UNAUTHORIZED when the listing is private here and no valid admin key came with the request. */
export function requirePersonalDataAccess(c: Context<AppEnv>): void {
  if (!mayReadPersonalData(c)) {
    throw new ApiError(
      'UNAUTHORIZED',
      'This listing holds personal data: a valid X-Admin-Api-Key header is required.',
    );
  }
}

/** The same check as a route middleware, so it answers before the query is validated. */
export const personalDataListGuard: MiddlewareHandler<AppEnv> = async function personalDataListGuard(
  c,
  next,
) {
  requirePersonalDataAccess(c);
  await next();
};

/** The sentence the OpenAPI descriptions of those routes carry. */
export const PRIVATE_IN_PRODUCTION =
  'Deliberate difference from the spec (`Auth: none`): with `NODE_ENV=production` this needs ' +
  '`X-Admin-Api-Key` (401 `UNAUTHORIZED` without it), because it lists personal data to anyone; ' +
  '`PUBLIC_PERSONAL_DATA_LISTS=true` restores the open behaviour. Development keeps it open.';

/** OpenAPI `security` of those routes: the admin key (needed in production), or nothing. */
export const ADMIN_KEY_OPTIONAL: Record<string, string[]>[] = [{ AdminApiKey: [] }, {}];
