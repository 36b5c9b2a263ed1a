import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startSmtpStandIn } from '../../../test/support/smtp-stand-in.ts';
import { SmtpTransport, smtpTransportOptions } from './transport.ts';

const message = { to: ['team@example.com'], subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };
const credentials = { user: 'mailer', pass: 'p@ss word' };
const withCredentials = (url: string) =>
  url.replace('smtp://', `smtp://${credentials.user}:${encodeURIComponent(credentials.pass)}@`);

/** An address of this machine that is not loopback: mail to it is treated as leaving the machine. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('SMTP credentials and TLS', () => {
  it('requires STARTTLS when credentials go to another host, not over loopback, smtps or without them', () => {
    expect(smtpTransportOptions('smtp://u:p@mail.example.com').requireTLS).toBe(true);
    expect(smtpTransportOptions('smtp://u:p@10.0.0.5:25').requireTLS).toBe(true);
    expect(smtpTransportOptions('smtp://u:p@mail.example.com?requireTLS=false').requireTLS).toBe(false);
    expect(smtpTransportOptions('smtps://u:p@mail.example.com').requireTLS).toBe(false);
    expect(smtpTransportOptions('smtp://mail.example.com').requireTLS).toBe(false);
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      expect(smtpTransportOptions(`smtp://u:p@${host}:2525`).requireTLS).toBe(false);
    }
    expect(smtpTransportOptions('smtp://u%40x:p%3Aq@mail.example.com').auth).toEqual({
      user: 'u@x',
      pass: 'p:q',
    });
  });

  it('logs in over loopback and delivers', async () => {
    const smtp = await startSmtpStandIn(0, { auth: credentials });
    try {
      const sent = await new SmtpTransport(withCredentials(smtp.url), 'site@example.com').send(message, {
        messageId: '<loopback@example.com>',
      });
      expect(sent.refused).toEqual([]);
      expect(smtp.logins).toEqual([credentials.user]);
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it.skipIf(!outsideAddress)(
    'never sends the password to a server off this machine that does not offer STARTTLS',
    async () => {
      const smtp = await startSmtpStandIn(0, { auth: credentials, host: outsideAddress });
      try {
        const transport = new SmtpTransport(withCredentials(smtp.url), 'site@example.com');
        await expect(transport.send(message, { messageId: '<plain@example.com>' })).rejects.toThrow(
          /STARTTLS/i,
        );
        expect(smtp.logins).toEqual([]);
        expect(smtp.messages).toHaveLength(0);
        // The documented escape hatch for a relay that cannot do TLS.
        const relaxed = new SmtpTransport(
          `${withCredentials(smtp.url)}?requireTLS=false`,
          'site@example.com',
        );
        await relaxed.send(message, { messageId: '<relaxed@example.com>' });
        expect(smtp.logins).toEqual([credentials.user]);
      } finally {
        await smtp.close();
      }
    },
  );
});
