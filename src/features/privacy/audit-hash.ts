import { createHmac } from 'node:crypto';
import type { Config } from '../../config.ts';

/**
 * What stands for an address in the audit log: HMAC-SHA-256 of the trimmed, lower-cased address,
 * keyed with PRIVACY_AUDIT_SECRET, or (unset) with a key derived from ADMIN_API_SECRET, which every
 * erasure request needs anyway. The key lives in the environment, never in the database: whoever
 * holds a copy of the database (a backup, a dump) cannot test addresses against the log; whoever
 * holds the key can answer "did we erase ana@example.com?" (the Privacy view's look-up). Rotating the
 * key leaves earlier entries unmatched (their time and counts stay readable).
 */
export function auditKey(config: Config): string | null {
  if (config.privacy.auditSecret) return config.privacy.auditSecret;
  if (!config.secrets.admin) return null;
  return createHmac('sha256', config.secrets.admin).update('privacy-audit-key').digest('hex');
}

export function addressHash(config: Config, email: string): string | null {
  const key = auditKey(config);
  if (!key) return null;
  return createHmac('sha256', key).update(email.trim().toLowerCase()).digest('hex');
}
