/**
 * What other features may use of prototypes (the only file of this folder they may import): the
 * chat path of POST /api/leads creates the lead's prototype before answering; an admin's correction
 * of a lead's classification queues the job that starts (or lets go of) its prototype.
 */
export {
  type ChatPrototype,
  type ChatPrototypeOutcome,
  createPrototypeForChat,
  repeatedChatPrototype,
} from './chat-path.ts';
export { type PrototypePorts, prototypePorts } from './context.ts';
export { queuePrototypeAfterCorrection } from './queue.ts';
