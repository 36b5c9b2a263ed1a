/**
 * What other features may use of support (the only file of this folder they may import): the back
 * office lists the contact-us messages and corrects their classification.
 */
export { SupportMessageNotFound } from './errors.ts';
export { type MessageCorrectionOutcome, reclassifySupportMessage } from './reclassify.ts';
export { supportClassifierInput } from './send.ts';
export {
  getSupportMessage,
  listSupportMessages,
  type SupportMessage,
  type SupportMessageStatus,
} from './store.ts';
