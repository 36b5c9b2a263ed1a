import { SALES_AGENT_LIMITS } from '../../integrations/sales-agent/limits.ts';

/** The chat routes' limits (backend-api.md, Limits); schemas and tests import them from here. */
export const CHAT_LIMITS = {
  sessionIdChars: 128,
  queryChars: 8000,
  languageChars: 16,
  history: { minLimit: 1, maxLimit: 200, defaultLimit: 50 },
  /** What the relay accepts from an agent backend (frame size, duration, timeouts). */
  agent: SALES_AGENT_LIMITS,
} as const;
