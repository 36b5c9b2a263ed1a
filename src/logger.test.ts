import { describe, expect, it } from 'vitest';
import { LogCapture } from '../test/support/test-app.ts';
import { createLogger, inBlocks } from './logger.ts';

// Found by the secrets-in-logs test: outside services echo refused credentials in their errors
// (SMTP "535 Invalid login for user:password", a model API's "Incorrect API key provided: …"),
// and those messages reached the log.
describe('logger: configured secrets never reach a log line', () => {
  it('replaces each secret (raw, JSON-escaped, URL-encoded) in messages, errors and fields', () => {
    const logs = new LogCapture();
    const secrets = ['sk-live-0123456789', 'pa"ss\\word&1', 'short'];
    const logger = createLogger('info', logs.stream, secrets);
    logger.warn({ err: new Error('Incorrect API key provided: Bearer sk-live-0123456789') }, 'model failed');
    logger.warn(
      { response: '535 Invalid login for mailer:pa"ss\\word&1', url: 'smtp://u:pa%22ss%5Cword%261@h' },
      'smtp',
    );
    logger.info({ note: 'a short word stays' }, 'sk-live-0123456789 in the message');
    const text = logs.raw.join('');
    expect(text).not.toContain('sk-live-0123456789');
    expect(text).not.toContain('pa\\"ss\\\\word&1');
    expect(text).not.toContain('pa%22ss%5Cword%261');
    expect(text).toContain('[redacted]');
    expect(text).toContain('a short word stays');
    expect(logs.lines).toHaveLength(3);
  });

  it('without secrets the destination is used as is', () => {
    const logs = new LogCapture();
    createLogger('info', logs.stream).info('plain');
    expect(logs.lines[0]).toMatchObject({ msg: 'plain' });
  });
});

describe('logger: lines written in blocks', () => {
  it('holds lines until a block is full, then writes them in one call; flush writes the rest', () => {
    const writes: string[] = [];
    const target = { write: (text: string) => writes.push(text) } as unknown as Parameters<
      typeof inBlocks
    >[0];
    const blocks = inBlocks(target);
    const line = `${JSON.stringify({ msg: 'x'.repeat(1013) })}\n`; // 1,024 characters: 16 fill a block
    for (let i = 0; i < 15; i++) blocks.write(line);
    expect(writes).toEqual([]);
    blocks.write(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toBe(line.repeat(16));
    blocks.write('{"msg":"last"}\n');
    let flushed = false;
    blocks.flush(() => {
      flushed = true;
    });
    expect(flushed).toBe(true);
    expect(writes).toEqual([line.repeat(16), '{"msg":"last"}\n']);
    blocks.flush();
    expect(writes).toHaveLength(2);
  });
});
