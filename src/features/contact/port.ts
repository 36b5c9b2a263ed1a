/**
 * What other features may use of contact (the only file of this folder they may import): the back
 * office lists the messages.
 */
export { contactView, listContacts } from './store.ts';
