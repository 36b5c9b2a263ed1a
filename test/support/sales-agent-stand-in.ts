import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** One connection the stand-in accepted, as the agent backend saw it. */
export interface AgentConnection {
  headers: IncomingHttpHeaders;
  /** Every text frame received, parsed. */
  frames: Record<string, unknown>[];
  socket: WebSocket;
  /** Resolves with the close code once the connection is closed (by either side). */
  closed: Promise<number>;
}

export interface FrameContext {
  frame: Record<string, unknown>;
  connection: AgentConnection;
  send(frame: unknown): void;
}

/** What the stand-in does with each frame it receives (a query or a history request). */
export type AgentBehaviour = (context: FrameContext) => void | Promise<void>;

export interface StandInAgent {
  url: string;
  connections: AgentConnection[];
  setBehaviour(behaviour: AgentBehaviour): void;
  /** Resolves with the n-th connection (1-based) once it has received its first frame. */
  connection(n: number): Promise<AgentConnection>;
  close(): Promise<void>;
}

/**
 * A local sales-agent backend speaking protocol v1 over a real WebSocket (the `ws` package), for
 * tests and the relay benchmark. It records the handshake headers and every frame.
 */
export async function startStandInAgent(behaviour: AgentBehaviour): Promise<StandInAgent> {
  let current = behaviour;
  const connections: AgentConnection[] = [];
  const waiters: { n: number; resolve: (c: AgentConnection) => void }[] = [];
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  server.on('connection', (socket, request) => {
    const connection: AgentConnection = {
      headers: request.headers,
      frames: [],
      socket,
      closed: new Promise((resolve) => socket.once('close', (code) => resolve(code))),
    };
    connections.push(connection);
    const index = connections.length;
    socket.on('error', () => {});
    socket.on('message', (data) => {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(data.toString()) as Record<string, unknown>;
      } catch {
        frame = { unparsed: data.toString() };
      }
      connection.frames.push(frame);
      if (connection.frames.length === 1) {
        for (const waiter of waiters.filter((w) => w.n === index)) waiter.resolve(connection);
      }
      const send = (value: unknown) => {
        if (socket.readyState === WebSocket.OPEN) {
          socket.send(typeof value === 'string' ? value : JSON.stringify(value));
        }
      };
      void Promise.resolve(current({ frame, connection, send })).catch(() => socket.terminate());
    });
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    connections,
    setBehaviour(next) {
      current = next;
    },
    connection(n) {
      const existing = connections[n - 1];
      if (existing && existing.frames.length > 0) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The ordinary agent: streams the answer word by word, then `done`. */
export function streamingAgent(answer: string, metadata: Record<string, unknown> = {}): AgentBehaviour {
  return ({ frame, send }) => {
    if (frame.type === 'history') return send({ type: 'history', messages: [] });
    for (const word of answer.match(/\s*\S+/g) ?? []) send({ type: 'token', content: word });
    send({ type: 'done', content: answer, metadata });
  };
}
