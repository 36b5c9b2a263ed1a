/** A server-sent event as a browser's EventSource would dispatch it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parses a `text/event-stream` body the way the EventSource specification does (for tests and the
 * benchmark): `event:`/`data:`/`id:` fields, multi-line data, `:` comments skipped, LF or CRLF, an
 * event dispatched on a blank line.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\n|\r/);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      newline = buffer.search(/\r\n|\n|\r/);
      if (line === '') {
        if (data.length > 0)
          yield { event: event || 'message', data: data.join('\n'), ...(id ? { id } : {}) };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  }
}

/** Every event of a stream, with its data parsed as JSON. */
export async function readSse(response: Response): Promise<{ event: string; data: unknown }[]> {
  const events: { event: string; data: unknown }[] = [];
  if (!response.body) return events;
  for await (const e of sseEvents(response.body)) events.push({ event: e.event, data: JSON.parse(e.data) });
  return events;
}
