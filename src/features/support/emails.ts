import { escapeHtml, headerSafe, type MailMessage } from '../../integrations/mail/index.ts';
import type { StoredAttachment, SupportMessage, TicketRecord } from './store.ts';

/** A classified contact request (support's contact-us, the contact form), as the e-mails read it. */
export type ContactRequest = Pick<
  SupportMessage,
  | 'id'
  | 'status'
  | 'classification'
  | 'classificationReason'
  | 'classifiedBy'
  | 'name'
  | 'email'
  | 'company'
  | 'subject'
  | 'message'
>;

/** Support e-mails (HTML and text; every piece of user text escaped, subjects on one line). */

type Lang = 'en' | 'es';
type Row = [string, string];

function layout(lang: Lang, title: string, bodyHtml: string): string {
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1a1a1a;max-width:640px;margin:0 auto;padding:24px">` +
    `${bodyHtml}</body></html>`
  );
}

function htmlTable(rows: Row[]): string {
  const cells = rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;vertical-align:top;color:#555"><b>${escapeHtml(label)}</b></td>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${cells}</table>`;
}

const textTable = (rows: Row[]) => rows.map(([label, value]) => `${label}: ${value}`).join('\n');
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;
const optionalRow = (label: string, value: string | null | undefined): Row[] =>
  value ? [[label, value]] : [];

/** A genuine contact request, to SUPPORT_EMAIL; the CRM mailbox gets it as a blind copy. */
export function contactEmail(message: ContactRequest, to: string, bcc: string | undefined): MailMessage {
  const rows: Row[] = [
    ['Name', message.name],
    ['E-mail', message.email],
    ...optionalRow('Company', message.company),
    ...optionalRow('Subject', message.subject),
    [
      'Classification',
      `${message.classification} (${message.classifiedBy}): ${message.classificationReason}`,
    ],
    ['Reference', message.id],
  ];
  const subject = headerSafe(`Contact request: ${message.subject ?? message.name}`);
  return {
    to,
    ...(bcc ? { bcc } : {}),
    replyTo: message.email,
    subject,
    text: ['New contact request', '', textTable(rows), '', 'Message:', message.message].join('\n'),
    html: layout(
      'en',
      subject,
      `<h2 style="margin-top:0">New contact request</h2>${htmlTable(rows)}` +
        `<h3>Message</h3><p style="white-space:pre-wrap">${escapeHtml(message.message)}</p>`,
    ),
  };
}

/** The polite decline a vendor pitch gets (same wording as the leads decline). */
export function vendorDeclineEmail(message: Pick<ContactRequest, 'name' | 'email'>, lang: Lang): MailMessage {
  const t =
    lang === 'es'
      ? {
          subject: 'Gracias por tu mensaje',
          hello: `Hola ${firstName(message.name)}:`,
          body: 'Gracias por ponerte en contacto y por presentarnos tus servicios. En este momento no estamos buscando nuevos proveedores ni alianzas, por lo que no daremos seguimiento a esta propuesta. Te deseamos mucho éxito.',
          bye: 'Saludos cordiales,\nEl equipo',
        }
      : {
          subject: 'Thank you for reaching out',
          hello: `Hi ${firstName(message.name)},`,
          body: 'Thank you for getting in touch and for introducing your services. We are not looking for new vendors or partnerships at the moment, so we will not follow up on this proposal. We wish you every success.',
          bye: 'Kind regards,\nThe team',
        };
  return {
    to: message.email,
    subject: t.subject,
    text: [t.hello, '', t.body, '', t.bye].join('\n'),
    html: layout(
      lang,
      t.subject,
      `<p>${escapeHtml(t.hello)}</p><p>${escapeHtml(t.body)}</p><p style="white-space:pre-line">${escapeHtml(t.bye)}</p>`,
    ),
  };
}

export function crmDealTitle(message: SupportMessage): string {
  const who = message.company ? `${message.name} (${message.company})` : message.name;
  return `${headerSafe(`Contact form: ${who}`, 180)} [${message.id}]`;
}

export function crmNoteHtml(message: SupportMessage): string {
  const rows: Row[] = [
    ['Name', message.name],
    ...optionalRow('Subject', message.subject),
    ['Message', message.message],
    ['Reference', message.id],
  ];
  return `<p><b>Website contact form</b></p><ul>${rows
    .map(([label, value]) => `<li><b>${escapeHtml(label)}:</b> ${escapeHtml(value)}</li>`)
    .join('')}</ul>`;
}

function ticketRows(
  ticket: TicketRecord | (Omit<TicketRecord, 'attachments'> & { attachments: StoredAttachment[] }),
): Row[] {
  return [
    ['Ticket', ticket.id],
    ['Name', ticket.fullName],
    ['E-mail', ticket.email],
    ...optionalRow('Company', ticket.companyName),
    ['Issue type', ticket.issueType],
    ['Urgency', ticket.urgency],
    ...optionalRow('Product URL', ticket.productUrl),
  ];
}

/** To the customer: the ticket id and what they sent. */
export function ticketConfirmationEmail(ticket: TicketRecord): MailMessage {
  const subject = headerSafe(`[${ticket.id}] We received your support request`);
  const rows = ticketRows(ticket);
  const files = ticket.attachments.map((a) => a.filename);
  const intro = `Hi ${firstName(ticket.fullName)}, thank you for contacting support. Your ticket number is ${ticket.id}; please quote it in any reply. Our team will get back to you soon.`;
  return {
    to: ticket.email,
    subject,
    text: [
      intro,
      '',
      textTable(rows),
      '',
      'Description:',
      ticket.description,
      ...(files.length ? ['', `Attachments received: ${files.join(', ')}`] : []),
    ].join('\n'),
    html: layout(
      'en',
      subject,
      `<p>${escapeHtml(intro)}</p>${htmlTable(rows)}<h3>Description</h3>` +
        `<p style="white-space:pre-wrap">${escapeHtml(ticket.description)}</p>` +
        (files.length
          ? `<p>Attachments received:</p><ul>${files.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`
          : ''),
    ),
  };
}

/** To the support team: the whole ticket, its files attached (read from the database when sent). */
export function ticketNotificationEmail(ticket: TicketRecord, to: string): MailMessage {
  const subject = headerSafe(
    `[${ticket.id}] ${ticket.urgency.toUpperCase()}: ${ticket.issueType} — ${ticket.fullName}`,
  );
  const rows = ticketRows(ticket);
  return {
    to,
    replyTo: ticket.email,
    subject,
    text: ['New support ticket', '', textTable(rows), '', 'Description:', ticket.description].join('\n'),
    html: layout(
      'en',
      subject,
      `<h2 style="margin-top:0">New support ticket</h2>${htmlTable(rows)}<h3>Description</h3>` +
        `<p style="white-space:pre-wrap">${escapeHtml(ticket.description)}</p>`,
    ),
    attachments: ticket.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      blobId: a.blobId,
      size: a.size,
    })),
  };
}
