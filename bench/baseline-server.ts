/** The bare node:http baseline: answers the same JSON as /health, nothing else. */
import { createServer } from 'node:http';

const body = JSON.stringify({ status: 'OK' });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' ? address?.port : 0 }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
