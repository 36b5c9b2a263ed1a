import {
  createServer,
  get,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EdgeServerResponse } from './edge-response.ts';

/** Raw header lines (name as sent, value) of one GET. */
function rawHeaders(url: string): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    get(url, (res: IncomingMessage) => {
      res.resume();
      const pairs: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
      res.on('end', () => resolve(pairs));
    }).on('error', reject);
  });
}

const CONSTANT_HEADERS: OutgoingHttpHeaders = {
  'Content-Type': 'text/plain',
  'X-Content-Type-Options': 'nosniff',
};

describe('EdgeServerResponse: the edge headers written with the handler’s own', () => {
  const edge = { 'x-request-id': 'req-1', 'x-content-type-options': 'nosniff', vary: 'Origin' };
  const handlers: Record<string, (res: EdgeServerResponse) => void> = {
    '/plain': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
    '/none': (res) => res.writeHead(204).end(),
    '/reason': (res) => res.writeHead(200, 'Fine', { 'content-type': 'text/plain' }).end('ok'),
    '/vary': (res) => res.writeHead(200, { Vary: 'Accept-Encoding' }).end('ok'),
    '/own-id': (res) => res.writeHead(200, { 'X-Request-Id': 'handler-id' }).end('ok'),
    '/constant': (res) => res.writeHead(200, CONSTANT_HEADERS).end('ok'),
    '/array': (res) => res.writeHead(200, ['Content-Type', 'text/plain', 'Vary', 'Cookie']).end('ok'),
    '/set-header': (res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.setHeader('Vary', 'Cookie');
      res.end('ok');
    },
  };
  let url = '';
  const server = createServer({ ServerResponse: EdgeServerResponse as typeof ServerResponse }, (req, res) => {
    const response = res as EdgeServerResponse;
    response.edgeHeaders = { ...edge };
    handlers[req.url ?? '']?.(response);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const lower = (pairs: [string, string][]) => pairs.map(([n, v]) => [n.toLowerCase(), v]);

  it('adds the edge headers to a handler’s plain headers, with or without a reason phrase', async () => {
    for (const path of ['/plain', '/reason', '/none']) {
      const headers = lower(await rawHeaders(`${url}${path}`));
      expect(headers).toContainEqual(['x-request-id', 'req-1']);
      expect(headers).toContainEqual(['x-content-type-options', 'nosniff']);
      expect(headers).toContainEqual(['vary', 'Origin']);
    }
  });

  it('combines Vary and lets a handler’s own header win, in any letter case, each sent once', async () => {
    const vary = lower(await rawHeaders(`${url}/vary`)).filter(([n]) => n === 'vary');
    expect(vary).toEqual([['vary', 'Accept-Encoding, Origin']]);
    const ids = lower(await rawHeaders(`${url}/own-id`)).filter(([n]) => n === 'x-request-id');
    expect(ids).toEqual([['x-request-id', 'handler-id']]);
    const nosniff = lower(await rawHeaders(`${url}/constant`)).filter(
      ([n]) => n === 'x-content-type-options',
    );
    expect(nosniff).toHaveLength(1);
  });

  it('never writes into a handler’s header object (handlers may share one constant object)', async () => {
    await rawHeaders(`${url}/constant`);
    expect(CONSTANT_HEADERS).toEqual({ 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' });
  });

  it('handles raw header arrays and headers set with setHeader', async () => {
    const array = lower(await rawHeaders(`${url}/array`));
    expect(array).toContainEqual(['x-request-id', 'req-1']);
    expect(
      array
        .filter(([n]) => n === 'vary')
        .map(([, v]) => v)
        .join(', '),
    ).toContain('Origin');
    const set = lower(await rawHeaders(`${url}/set-header`));
    expect(set).toContainEqual(['x-request-id', 'req-1']);
    expect(set).toContainEqual(['content-type', 'text/plain']);
    expect(set.filter(([n]) => n === 'vary')).toEqual([['vary', 'Cookie, Origin']]);
  });
});
