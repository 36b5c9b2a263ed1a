import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { checkAddressText, parseIPv4Literal } from './address.ts';
import { normalizeUrl, type Resolver, SafeFetchError, SafeFetcher } from './safe-fetch.ts';

/** A resolver for made-up names; real DNS is never asked in these tests. */
function fakeDns(table: Record<string, string[]>, calls: string[] = []): Resolver {
  return async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SafeFetchError) return error;
    throw error;
  }
  throw new Error('expected a SafeFetchError');
}

let internal: StandIn;
let port: number;

beforeAll(async () => {
  internal = await startStandIn((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('internal secret');
  });
  port = Number(new URL(internal.url).port);
});
afterAll(() => internal.close());

describe('address rules', () => {
  it('parses IPv4 literals in every inet_aton form as bytes', () => {
    for (const form of [
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '0x7f.1',
      '0x7f.0.0.0x1',
      '127.0.0.1.',
      '017700000001',
    ]) {
      expect(parseIPv4Literal(form)?.toString(), form).toBe('127.0.0.1');
    }
    expect(parseIPv4Literal('2852039166')?.toString()).toBe('169.254.169.254');
    expect(parseIPv4Literal('example.com')).toBeNull();
    for (const bad of ['256.0.0.1', '1.2.3.4.5', '0x100000000', '09.1.1.1', '1.2.3.999', 'foo.12']) {
      expect(() => parseIPv4Literal(bad), bad).toThrow();
    }
  });

  it('allows public unicast and refuses the rest', () => {
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(checkAddressText(ok).allowed, ok).toBe(true);
    }
    for (const bad of [
      '127.0.0.1',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::7f00:1',
      '64:ff9b::808:808',
      '64:ff9b:1::a00:1',
      '::127.0.0.1',
      '2001:db8::1',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '100::1',
      'not-an-ip',
    ]) {
      expect(checkAddressText(bad).allowed, bad).toBe(false);
    }
  });
});

describe('URL normalisation', () => {
  it('normalises scheme, host case, default port and fragment', () => {
    expect(normalizeUrl('  HTTPS://Example.COM:443/a/b?q=1#frag ').href).toBe('https://example.com/a/b?q=1');
    expect(normalizeUrl('http://example.com:80').href).toBe('http://example.com/');
  });

  it.each([
    ['not a url', 'invalid_url'],
    ['example.com', 'invalid_url'],
    ['file:///etc/passwd', 'scheme'],
    ['ftp://example.com/', 'scheme'],
    ['gopher://example.com/', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/html,hi', 'scheme'],
    ['http://user:pass@example.com/', 'credentials'],
    ['http://user@example.com/', 'credentials'],
  ])('refuses %s (%s)', (input, reason) => {
    expect(() => normalizeUrl(input)).toThrow(SafeFetchError);
    try {
      normalizeUrl(input);
    } catch (error) {
      expect((error as SafeFetchError).reason).toBe(reason);
    }
  });
});

describe('SSRF regression table: the internal target is never contacted', () => {
  // The stand-in's port is allowed here so that the ADDRESS rule is what refuses each form.
  const fetcher = () =>
    new SafeFetcher({
      ports: [80, 443, port],
      resolve: fakeDns({
        'evil.test': ['127.0.0.1'],
        'metadata.test': ['169.254.169.254'],
        'mixed.test': ['93.184.216.34', '127.0.0.1'],
        'v6loop.test': ['::1'],
        'mapped.test': ['::ffff:127.0.0.1'],
        'private.test': ['10.0.0.5'],
        'cgnat.test': ['100.100.100.100'],
      }),
    });

  const forms = () => [
    `http://127.0.0.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://0177.0000.0000.0001:${port}/`,
    `http://127.1:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://0x7f.0x0.0x0.0x1:${port}/`,
    `http://127.0.0.1.:${port}/`,
    `http://127.000.000.001:${port}/`,
    `http://%31%32%37.0.0.1:${port}/`,
    `http://①②⑦.0.0.1:${port}/`,
    `http://localhost:${port}/`,
    `http://LOCALHOST:${port}/`,
    `http://foo.localhost:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://0:${port}/`,
    `http://[::]:${port}/`,
    `http://[::1]:${port}/`,
    `http://[0:0:0:0:0:0:0:1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[::127.0.0.1]:${port}/`,
    `http://[64:ff9b::127.0.0.1]:${port}/`,
    `http://[64:ff9b::7f00:1]:${port}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://0251.0376.0251.0376/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://192.0.2.10/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    'http://[2002:7f00:1::1]/',
    `http://evil.test:${port}/`,
    'http://metadata.test/',
    `http://mixed.test:${port}/`,
    `http://v6loop.test:${port}/`,
    `http://mapped.test:${port}/`,
    'http://private.test/',
    'http://cgnat.test/',
  ];

  it('refuses every form with blocked_address', async () => {
    const f = fetcher();
    for (const url of forms()) {
      const error = await refusal(f.fetch(url, { timeoutMs: 5000 }));
      expect(error.reason, url).toBe('blocked_address');
    }
    expect(internal.requests).toHaveLength(0);
  });

  it('refuses malformed numeric hosts rather than resolving them', async () => {
    const calls: string[] = [];
    const f = new SafeFetcher({ resolve: fakeDns({}, calls) });
    for (const url of ['http://1.2.3.999/', 'http://0x100000000/', 'http://09.1.1.1/']) {
      const error = await refusal(f.fetch(url));
      expect(['invalid_url', 'blocked_address'], url).toContain(error.reason);
    }
    expect(calls).toHaveLength(0);
  });

  it('refuses non-standard ports and non-http schemes', async () => {
    const f = new SafeFetcher({ resolve: fakeDns({ 'example.test': ['93.184.216.34'] }) });
    expect((await refusal(f.fetch(`http://example.test:${port}/`))).reason).toBe('port');
    expect((await refusal(f.fetch('http://example.test:22/'))).reason).toBe('port');
    expect((await refusal(f.fetch('file:///etc/passwd'))).reason).toBe('scheme');
    expect((await refusal(f.fetch('http://a:b@example.test/'))).reason).toBe('credentials');
    expect(internal.requests).toHaveLength(0);
  });
});

describe('pinning, redirects and bounds', () => {
  let site: StandIn;
  beforeAll(async () => {
    site = await startStandIn((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/to-loopback') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
        res.end();
      } else if (url.pathname === '/to-evil') {
        res.writeHead(301, { location: `http://evil.test:${port}/secret` });
        res.end();
      } else if (url.pathname === '/to-metadata') {
        res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
        res.end();
      } else if (url.pathname.startsWith('/loop/')) {
        const n = Number(url.pathname.split('/')[2]);
        res.writeHead(302, { location: `/loop/${n + 1}` });
        res.end();
      } else if (url.pathname === '/hop') {
        res.writeHead(301, { location: '/final' });
        res.end();
      } else if (url.pathname === '/giant') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const write = () => {
          while (sent < 200 && res.write(chunk)) sent++;
          if (sent < 200) res.once('drain', write);
          else res.end();
        };
        write();
      } else if (url.pathname === '/giant-declared') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
        res.write('<html>');
      } else if (url.pathname === '/drip') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('.'), 200);
        res.on('close', () => clearInterval(timer));
      } else if (url.pathname === '/stall') {
        // never answers
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><body>${req.headers.host}</body></html>`);
      }
    });
  });
  afterAll(() => site.close());

  const sitePort = () => Number(new URL(site.url).port);
  const allowed = (calls: string[] = []) =>
    new SafeFetcher({
      allowHosts: ['allowed.test'],
      resolve: fakeDns({ 'allowed.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'] }, calls),
    });

  it('connects to the checked address (the name is resolved once, by us, and pinned)', async () => {
    const calls: string[] = [];
    const response = await allowed(calls).fetch(`http://allowed.test:${sitePort()}/page`);
    expect(response.status).toBe(200);
    // allowed.test exists only in the fake resolver: the socket used our answer, not the system's DNS.
    expect(response.body.toString()).toContain(`allowed.test:${sitePort()}`);
    expect(calls).toEqual(['allowed.test']);
  });

  it('follows a redirect and records the chain', async () => {
    const response = await allowed().fetch(`http://allowed.test:${sitePort()}/hop`);
    expect(response.url).toBe(`http://allowed.test:${sitePort()}/final`);
    expect(response.redirects).toEqual([{ url: `http://allowed.test:${sitePort()}/hop`, status: 301 }]);
  });

  it('refuses a redirect from an allowed host into loopback, a private name or the metadata address', async () => {
    for (const path of ['/to-loopback', '/to-evil', '/to-metadata']) {
      const error = await refusal(allowed().fetch(`http://allowed.test:${sitePort()}${path}`));
      expect(['blocked_address', 'port'], path).toContain(error.reason);
    }
    // The same with the internal port allowed, so only the address rule can stop it.
    const f = new SafeFetcher({
      allowHosts: ['allowed.test'],
      ports: [80, 443, port],
      resolve: fakeDns({ 'allowed.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'] }),
    });
    for (const path of ['/to-loopback', '/to-evil']) {
      expect((await refusal(f.fetch(`http://allowed.test:${sitePort()}${path}`))).reason).toBe(
        'blocked_address',
      );
    }
    expect(internal.requests).toHaveLength(0);
  });

  it('stops after 5 redirects', async () => {
    const error = await refusal(allowed().fetch(`http://allowed.test:${sitePort()}/loop/0`));
    expect(error.reason).toBe('too_many_redirects');
  });

  it('cuts a giant page off at the size cap (streamed and declared)', async () => {
    const f = allowed();
    expect(
      (await refusal(f.fetch(`http://allowed.test:${sitePort()}/giant`, { maxBytes: 1024 * 1024 }))).reason,
    ).toBe('too_large');
    expect((await refusal(f.fetch(`http://allowed.test:${sitePort()}/giant-declared`))).reason).toBe(
      'too_large',
    );
  });

  it('bounds slow-drip and stalled servers by the total deadline', async () => {
    const f = allowed();
    expect(
      (await refusal(f.fetch(`http://allowed.test:${sitePort()}/drip`, { timeoutMs: 1500 }))).reason,
    ).toBe('timeout');
    expect(
      (await refusal(f.fetch(`http://allowed.test:${sitePort()}/stall`, { timeoutMs: 1500 }))).reason,
    ).toBe('timeout');
  });

  it('pins an IPv4-mapped answer as IPv4 (a socket given an IPv4 address as family 6 fails)', async () => {
    const f = new SafeFetcher({ resolve: fakeDns({ 'mapped.test': ['::ffff:93.184.215.14'] }) });
    expect(await f.check('http://mapped.test/')).toMatchObject({ address: '93.184.215.14', family: 4 });
    expect(f.checkStatic('http://[::ffff:93.184.215.14]/').target).toMatchObject({
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('reports an unresolvable name as a dns failure', async () => {
    expect((await refusal(allowed().fetch('http://nowhere.test/'))).reason).toBe('dns');
  });
});
