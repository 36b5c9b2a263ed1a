/**
 * An instant OpenAI-compatible model for `npm run bench`: answers `POST …/chat/completions` at once
 * with a fixed, valid recommend-plan JSON, in its own process (started by bench/run.ts).
 */
import { createServer } from 'node:http';

const content = JSON.stringify({
  summary: 'You want a new website for your clinic.',
  recommendedPath: 'Build',
  rationale: { summary: 'A website is what you describe.', signals: ['new website', 'dental clinic'] },
  alternatives: [{ path: 'Launch', whenItWouldFit: 'If booking becomes an app.' }],
  detectedNeeds: ['new website', 'online booking'],
  missingInformation: ['budget', 'timeline'],
  confidence: 'high',
});
const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"OK"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' ? address?.port : 0 }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
