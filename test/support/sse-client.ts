/** A server-sent event as a browser's EventSource would dispatch it. */
export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * Parses `text/event-stream` the way the EventSource specification does: `event`/`data`/`id` fields,
 * multi-line data, `:` comments skipped, LF or CRLF, dispatch on a blank line; the last event id
 * persists across events.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let lastId: string | undefined;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\n|\r/);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      newline = buffer.search(/\r\n|\n|\r/);
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id: lastId };
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
      else if (field === 'id' && !value.includes('\0')) lastId = value;
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
