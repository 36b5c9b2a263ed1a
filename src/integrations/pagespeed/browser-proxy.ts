import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { SafeFetchError, type SafeFetcher } from '../safe-fetch/safe-fetch.ts';

/**
 * The SSRF guard for the local Lighthouse browser. Chromium is started with this proxy as its only
 * way out (`--proxy-server`, loopback included via `--proxy-bypass-list=<-loopback>`), so every
 * connection the page makes — the document, redirects, subresources, WebSockets — is checked by the
 * safe fetcher's rules and connected to the address that was checked (resolved once, pinned).
 * Chromium therefore never resolves a name itself. Refused targets get 403.
 */
export interface CheckingProxy {
  port: number;
  /** Targets refused so far (`host:port — reason`), for the run's warnings. */
  refused: string[];
  /**
   * The targets the SSRF rules refused (not DNS or other failures), by `proxyTarget`, with the
   * reason the visitor is told: what `documentRefusal` looks the page's own document up in.
   */
  blocked: Map<string, string>;
  close(): Promise<void>;
}

/**
 * The key a target is refused under: the URL without its fragment for plain http (the proxy sees
 * the whole URL), `host:port` for https and wss (a CONNECT tunnel shows only that).
 */
export function proxyTarget(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'wss:') {
      return `${parsed.hostname}:${parsed.port || '443'}`;
    }
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/** One event of Lighthouse's DevTools log (`artifacts.DevtoolsLog`, `DevtoolsLogError` on a failed load). */
export interface DevtoolsEvent {
  method: string;
  params?: unknown;
}

/**
 * Why the page itself could not be loaded when that was the proxy's SSRF refusal: the main frame's
 * document requests — the URL asked for and every redirect (HTTP or script) — are read from
 * the DevTools log, and the first one the proxy refused by the rules gives the reason. Null when no
 * document of the main frame was refused (the site failed, or only subresources or frames were
 * refused), so such a failure stays an upstream one.
 */
export function documentRefusal(
  devtoolsLog: readonly DevtoolsEvent[],
  blocked: ReadonlyMap<string, string>,
): string | null {
  let mainFrame: string | undefined;
  for (const event of devtoolsLog) {
    if (event.method !== 'Network.requestWillBeSent') continue;
    const params = (event.params ?? {}) as { type?: string; frameId?: string; request?: { url?: string } };
    if (params.type !== 'Document' || !params.request?.url) continue;
    // The first document request is the navigation Lighthouse started, in the main frame.
    mainFrame ??= params.frameId;
    if (params.frameId !== mainFrame) continue;
    const reason = blocked.get(proxyTarget(params.request.url));
    if (reason !== undefined) return reason;
  }
  return null;
}

const HOP_BY_HOP = [
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
];

export async function startCheckingProxy(fetcher: SafeFetcher): Promise<CheckingProxy> {
  const refused: string[] = [];
  const blocked = new Map<string, string>();
  const refuse = (key: string, shown: string, error: unknown) => {
    refused.push(`${shown} — ${(error as Error).message}`);
    if (error instanceof SafeFetchError && error.isPolicy) blocked.set(key, error.message);
  };
  const sockets = new Set<Socket>();

  const server = createServer(async (req, res) => {
    let target: Awaited<ReturnType<SafeFetcher['check']>>;
    try {
      target = await fetcher.check(req.url ?? '');
      if (target.url.protocol !== 'http:') throw new Error('plain proxy requests must be http');
    } catch (error) {
      refuse(proxyTarget(req.url ?? ''), `${req.url}`, error);
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('Refused by the analysis proxy.');
      return;
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.url.host };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = httpRequest({
      host: target.address,
      family: target.family,
      port: Number(target.url.port || 80),
      method: req.method,
      path: `${target.url.pathname}${target.url.search}`,
      headers,
      setHost: false,
    });
    upstream.on('response', (response) => {
      res.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });

  server.on('connect', async (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const authority = req.url ?? '';
    let target: Awaited<ReturnType<SafeFetcher['check']>>;
    try {
      target = await fetcher.check(`https://${authority}/`);
    } catch (error) {
      refuse(proxyTarget(`https://${authority}/`), authority, error);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(
      { host: target.address, family: target.family, port: Number(target.url.port || 443) },
      () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
    );
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    refused,
    blocked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
