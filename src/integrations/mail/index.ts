export { escapeHtml, headerSafe, type MailAttachment, type MailMessage } from './message.ts';
export { listOutbox, type OutboxMessage, type OutboxStatus, outboxCounts } from './outbox.ts';
export {
  EMAIL_QUEUE,
  type EmailJob,
  type EmailQueueStatus,
  emailQueue,
  emailQueueDefinition,
  emailQueueStatus,
  enqueueEmail,
  type MailDeps,
} from './queue.ts';
export { createMailTransport, type MailTransport, OutboxTransport, SmtpTransport } from './transport.ts';
