/**
 * What other features may use of support (the only file of this folder they may import): the back
 * office lists the contact-us messages and corrects their classification; the contact form judges and
 * forwards its messages as the contact-us route does.
 */
export {
  type ContactRequest,
  type ContactRequestInput,
  type ContactRequestVerdict,
  classifyContactRequest,
  queueContactRequestEmails,
  supportClassifierInput,
} from './contact-request.ts';
export { SupportMessageNotFound } from './errors.ts';
export { type MessageCorrectionOutcome, reclassifySupportMessage } from './reclassify.ts';
export {
  getSupportMessage,
  listSupportMessages,
  type SupportMessage,
  type SupportMessageStatus,
} from './store.ts';
