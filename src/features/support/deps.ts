import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { CaptchaVerifier } from '../../integrations/captcha/captcha.ts';
import type { CrmClient } from '../../integrations/crm/crm.ts';
import type { LlmClient } from '../../integrations/llm/llm-client.ts';
import type { MailTransport } from '../../integrations/mail/transport.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import type { QueueWorker } from '../../queue/worker.ts';
import { SupportRefusal } from './errors.ts';

/** What the support logic needs; the infrastructure provides it. */
export interface SupportDeps {
  config: Config;
  db: Db;
  jobs: JobQueue;
  worker: QueueWorker;
  captcha: CaptchaVerifier;
  crm: CrmClient;
  mail: MailTransport;
  logger: Logger;
  llm?: LlmClient | null;
  metrics?: { recordOutboundError(service: string): void };
}

/** Refuses a missing, rejected or low-score token (`captcha_failed`), or any when siteverify is unreachable. */
export async function requireCaptcha(
  deps: SupportDeps,
  token: string | undefined,
  clientIp: string | null,
  what: string,
): Promise<void> {
  const result = await deps.captcha.verify(token, clientIp);
  if (result.ok) return;
  deps.logger.info({ reason: result.reason, detail: result.detail }, `${what} refused: CAPTCHA`);
  if (result.reason === 'unavailable') {
    deps.metrics?.recordOutboundError('captcha');
    throw new SupportRefusal(
      'captcha_unavailable',
      'The CAPTCHA could not be verified right now; please try again.',
    );
  }
  throw new SupportRefusal('captcha_failed', 'The CAPTCHA check failed; please try again.');
}
