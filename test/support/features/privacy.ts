import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { CRM_QUEUE } from '../../../src/integrations/crm/sync.ts';
import { EMAIL_QUEUE } from '../../../src/integrations/mail/queue.ts';
import type { TestContext } from '../test-app.ts';

/** Shared set-up of the privacy tests: keys, one person written into every feature, admin calls. */
export const ADMIN_KEY = 'privacy-admin-key-0123456789';
export const CHAT_KEY = 'privacy-chat-key-0123456789';
export const PRIVACY_ENV = { ADMIN_API_SECRET: ADMIN_KEY, CHAT_API_SECRET: CHAT_KEY };

export interface Person {
  name: string;
  email: string;
  company: string;
  chatSessionId: string;
}

/** A person with a name and an address no other test uses (so a dump can look for them). */
export function newPerson(label = 'Ana'): Person {
  const tag = randomUUID().slice(0, 8);
  return {
    name: `${label} Quintanilla${tag}`,
    email: `${label.toLowerCase()}.${tag}@example.com`,
    company: `Posada ${tag}`,
    chatSessionId: `chat-${tag}`,
  };
}

export interface Requester {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** `fetch` on a served app, or the app itself in-process. */
export const served = (url: string): Requester => ({ request: (path, init) => fetch(`${url}${path}`, init) });

let ipCounter = 0;
const freshIp = () => {
  ipCounter++;
  return `198.20.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

async function ok(res: Response | Promise<Response>, status = 200) {
  const answer = await res;
  const text = await answer.text();
  expect(answer.status, text).toBe(status);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * Writes the person into every feature that keeps personal data: a lead from the chat (its prototype
 * generated, its CRM deal, its e-mails queued, the quota counted) linked to a chat conversation that
 * names the address, a contact-form message, a contact-us request and a ticket with a file. Returns
 * the ids.
 */
export async function createPersonEverywhere(app: Requester, person: Person) {
  const chat = await app.request('/api/chat/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chat-api-key': CHAT_KEY, 'x-forwarded-for': freshIp() },
    body: JSON.stringify({
      sessionId: person.chatSessionId,
      query: `Hello, I am ${person.name} of ${person.company}; write to me at ${person.email}. What does a booking site cost?`,
    }),
  });
  expect(chat.status).toBe(200);
  await chat.text();

  const lead = await ok(
    app.request('/api/leads', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-chat-api-key': CHAT_KEY,
        'x-chat-session-id': person.chatSessionId,
        'x-end-user-ip': freshIp(),
      },
      body: JSON.stringify({
        personal: {
          name: person.name,
          email_address: person.email.toUpperCase(),
          phone_number: '+57 300 123 4567',
          company: person.company,
          position: 'Owner',
        },
        steps: {
          initial_choice: 'create',
          service: 'build-website',
          prototype: 'landing',
          goal: `Direct bookings for ${person.company}`,
          industry: 'hospitality',
          features: ['booking'],
          style: 'modernMinimalist',
          audience: 'b2c',
        },
        source_url: 'https://agency.example/chat',
        language: 'en',
      }),
    }),
  );

  const contact = await ok(
    app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({
        name: person.name,
        email: ` ${person.email} `,
        subject: 'A question',
        message: `Please call ${person.name} back about the website.`,
      }),
    }),
    201,
  );

  await ok(
    app.request('/api/support/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({
        name: person.name,
        email: person.email,
        company: person.company,
        subject: 'New website',
        message:
          'Hello, we would like a new website for our hotel with online booking. Could you send us a quote?',
        recaptchaToken: 'ok-token',
      }),
    }),
  );

  const form = new FormData();
  for (const [name, value] of Object.entries({
    fullName: person.name,
    email: person.email,
    issueType: 'bug',
    companyName: person.company,
    urgency: 'high',
    description: `The booking form fails for ${person.name}.`,
    recaptchaToken: 'ok-token',
  })) {
    form.append(name, value);
  }
  form.append(
    'attachments',
    new Blob([`Notes of ${person.name} <${person.email}>\n`], { type: 'text/plain' }),
    'notes.txt',
  );
  const ticket = await ok(
    app.request('/api/support/tickets', {
      method: 'POST',
      headers: { 'x-forwarded-for': freshIp() },
      body: form,
    }),
  );

  return {
    leadId: String(lead.leadId),
    contactId: String(contact.id),
    ticketId: String(ticket.ticketId),
  };
}

/** Runs the queued e-mails and CRM syncs. */
/**
 * A contact-form message from `sender` that names `mentioned`'s address in its text (a colleague to
 * copy): the team's e-mail about it is the sender's, not the one mentioned.
 */
export async function mentionInContact(app: Requester, sender: Person, mentioned: Person) {
  await ok(
    app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({
        name: sender.name,
        email: sender.email,
        subject: 'A quote for our website',
        message: `Hello, we would like a quote for a new website for our bakery. Please also write to my colleague ${mentioned.email}.`,
      }),
    }),
    201,
  );
}

export async function drainSideEffects(ctx: TestContext): Promise<void> {
  await ctx.deps.worker.drain(EMAIL_QUEUE);
  await ctx.deps.worker.drain(CRM_QUEUE);
}

export function adminCall(app: Requester, method: 'GET' | 'DELETE', path: string, key = ADMIN_KEY) {
  return app.request(path, { method, headers: key ? { 'x-admin-api-key': key } : {} });
}
