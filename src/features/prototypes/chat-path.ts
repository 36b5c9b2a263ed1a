import type { Logger } from 'pino';
import { type PrototypePorts, prototypeContext } from './context.ts';
import { documentUrl, type PrototypeContext, previewUrl, type RunOutcome } from './generation.ts';
import { generateNow, PrototypeRefusal } from './service.ts';
import { latestResult } from './store.ts';

export interface ChatPrototype {
  /**
   * `generating`: not ready, not over: this instance shut down mid-way and another finishes it, or
   * the generator failed and PrototypeQueue retries it (follow `previewUrl`).
   */
  status: 'completed' | 'failed' | 'generating';
  generator: string | null;
  previewUrl: string;
  documentUrl: string | null;
  demoUrl: string | null;
}

export type ChatPrototypeOutcome =
  | { ok: true; prototype: ChatPrototype }
  | {
      ok: false;
      /** `quota`: the lead's prototype quota is used up until `retryAfterSeconds` from now. */
      failure: 'quota' | 'failed';
      message: string;
      retryAfterSeconds: number | null;
      prototype: ChatPrototype;
    };

export const HANDED_OVER_MESSAGE =
  'The server is restarting; the prototype is still being generated. Follow its progress at previewUrl.';
export const RETRYING_MESSAGE =
  'The prototype is not ready yet: the generator is failing for now and it is being retried. ' +
  'Follow its progress at previewUrl.';

/**
 * A blocking generation that did not complete but is not over either (the lead stays `generating`,
 * its quota slot held): cut by this instance's shutdown, failed with PrototypeQueue retrying (an
 * outside outage, ridden out for over an hour), or superseded by a newer attempt. What to tell the
 * caller then; null when the failure is final (the lead is `failed`).
 */
export function stillGeneratingMessage(outcome: RunOutcome): string | null {
  if (outcome.status === 'completed') return null;
  if (outcome.status === 'superseded') return RETRYING_MESSAGE;
  if (outcome.handedOver) return HANDED_OVER_MESSAGE;
  return outcome.final ? null : RETRYING_MESSAGE;
}

/**
 * Rules 4 and 5 of POST /api/leads: a trusted chat submission of a prototype-eligible lead creates
 * the prototype synchronously, and the response reflects the real outcome (a failure answers with
 * `success: false`; the lead itself is stored either way).
 */
export async function createPrototypeForChat(
  ports: PrototypePorts,
  leadId: string,
  logger: Logger,
): Promise<ChatPrototypeOutcome> {
  const ctx = prototypeContext(ports, logger);
  const failed = failedPrototype(ctx, leadId);
  try {
    const outcome = await generateNow(ctx, leadId, 'chat');
    if (outcome.status === 'completed') return completed(ctx, leadId);
    const stillGenerating = stillGeneratingMessage(outcome);
    if (stillGenerating) {
      return {
        ok: false,
        failure: 'failed',
        message: stillGenerating,
        retryAfterSeconds: null,
        prototype: { ...failed, status: 'generating' },
      };
    }
  } catch (error) {
    if (error instanceof PrototypeRefusal && error.reason === 'quota' && error.quota) {
      return {
        ok: false,
        failure: 'quota',
        message: error.message,
        retryAfterSeconds: error.quota.retryAfterSeconds,
        prototype: failed,
      };
    }
    logger.error({ err: error, leadId }, 'synchronous prototype creation failed');
  }
  return creationFailed(failed);
}

/**
 * The same submission sent again (a retry after a lost answer): the first one's prototype outcome,
 * never a second generation. Completed or failed is answered from what is stored; a lead still
 * generating is waited for, and one whose generation never began (its first answer was a 429) is
 * tried again, as the first request did.
 */
export async function repeatedChatPrototype(
  ports: PrototypePorts,
  lead: { id: string; status: string },
  logger: Logger,
): Promise<ChatPrototypeOutcome> {
  const ctx = prototypeContext(ports, logger);
  if (lead.status === 'completed') return completed(ctx, lead.id);
  if (lead.status === 'failed') return creationFailed(failedPrototype(ctx, lead.id));
  return createPrototypeForChat(ports, lead.id, logger);
}

async function completed(ctx: PrototypeContext, leadId: string): Promise<ChatPrototypeOutcome> {
  const result = await latestResult(ctx.db, leadId);
  return {
    ok: true,
    prototype: {
      status: 'completed',
      generator: result?.generator ?? ctx.generator.name,
      previewUrl: previewUrl(ctx, leadId),
      documentUrl: result?.hasHtml ? documentUrl(ctx, leadId) : null,
      demoUrl: result?.demoUrl ?? null,
    },
  };
}

function failedPrototype(ctx: PrototypeContext, leadId: string): ChatPrototype {
  return {
    status: 'failed',
    generator: null,
    previewUrl: previewUrl(ctx, leadId),
    documentUrl: null,
    demoUrl: null,
  };
}

function creationFailed(prototype: ChatPrototype): ChatPrototypeOutcome {
  return {
    ok: false,
    failure: 'failed',
    message: 'The lead was stored, but its prototype could not be created.',
    retryAfterSeconds: null,
    prototype,
  };
}
