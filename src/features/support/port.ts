/**
 * What other features may use of support (the only file of this folder they may import): the contact
 * form judges and forwards its messages as the contact-us route does.
 */
export {
  type ContactRequest,
  type ContactRequestInput,
  type ContactRequestVerdict,
  classifyContactRequest,
  queueContactRequestEmails,
} from './contact-request.ts';
export { normalizeLanguage } from './deps.ts';
