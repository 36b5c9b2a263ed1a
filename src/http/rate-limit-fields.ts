/**
 * The `RateLimit-Policy` and `RateLimit` response header fields of draft-ietf-httpapi-ratelimit-headers-10
 * (the syntax of drafts 08 and later: Structured Field Lists, RFC 9651, of policy-name Strings with
 * parameters), so a client can slow down before it is refused:
 *
 *   RateLimit-Policy: "ai-refine";q=30;w=600     the policy: quota `q` per window `w` seconds
 *   RateLimit: "ai-refine";r=12;t=340            what is left of it: `r` remaining, reset in `t` seconds
 *
 * Quotas are counted in requests (the default quota unit, so no `qu`). No partition key (`pk`) is sent:
 * the partition is the client's IP address, which a header has no business echoing.
 */

export const RATE_LIMIT_POLICY_HEADER = 'RateLimit-Policy';
export const RATE_LIMIT_HEADER = 'RateLimit';

export interface RateLimitPolicy {
  /** The policy's name, as the limiter's bucket family (`ai-refine`, `contact`). */
  name: string;
  /** Requests per window. */
  quota: number;
  windowSeconds: number;
}

export interface RateLimitState {
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** An SF String (RFC 9651 §3.3.3): printable ASCII, `"` and `\` escaped; anything else dropped. */
function sfString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (char.length > 1 || code < 0x20 || code > 0x7e) continue;
    out += char === '"' || char === '\\' ? `\\${char}` : char;
  }
  return `${out}"`;
}

/** A non-negative SF Integer (at most 15 digits). */
function sfInteger(value: number): string {
  return String(Math.min(999_999_999_999_999, Math.max(0, Math.floor(value))));
}

/** `"name";q=…;w=…` */
export function policyItem(policy: RateLimitPolicy): string {
  return `${sfString(policy.name)};q=${sfInteger(policy.quota)};w=${sfInteger(Math.max(1, policy.windowSeconds))}`;
}

/** `"name";r=…;t=…` */
export function serviceLimitItem(name: string, state: RateLimitState): string {
  return `${sfString(name)};r=${sfInteger(state.remaining)};t=${sfInteger(state.resetSeconds)}`;
}

/** Both fields for one policy and its current state. */
export function rateLimitFields(policy: RateLimitPolicy, state: RateLimitState): Record<string, string> {
  return {
    [RATE_LIMIT_POLICY_HEADER]: policyItem(policy),
    [RATE_LIMIT_HEADER]: serviceLimitItem(policy.name, state),
  };
}

/** The fields of a refusal: nothing remains until the window resets, which `Retry-After` repeats. */
export function refusalFields(policy: RateLimitPolicy, retryAfterSeconds: number): Record<string, string> {
  return {
    ...rateLimitFields(policy, { remaining: 0, resetSeconds: retryAfterSeconds }),
    'Retry-After': String(retryAfterSeconds),
  };
}
