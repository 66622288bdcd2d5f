// Test support (not used by production code): a subscription read the way a browser's
// EventSource reads it, over plain fetch: one GET, then Server-Sent Events parsed as they arrive.

/** One Server-Sent Event as tRPC frames it: `connected`, `ping`, `serialized-error`, or data (`message`). */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

export interface LiveStream {
  status: number;
  headers: Headers;
  /** Every event so far, pings excluded. */
  events: ServerSentEvent[];
  /** The data of the `message` events so far: what the subscription yielded. */
  messages(): unknown[];
  /** Resolves with the first event (so far or later) that `match` accepts. */
  waitFor(match: (event: ServerSentEvent) => boolean): Promise<ServerSentEvent>;
  close(): void;
}

function parseBlock(block: string): ServerSentEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (data.length === 0) return undefined;
  const text = data.join('\n');
  return { event, data: text === '' ? '' : JSON.parse(text) };
}

/** Opens `GET {baseUrl}/{path}` with the given headers and reads it until closed. */
export async function openLiveStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/${path}`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: ServerSentEvent[] = [];
  const waiters: { match: (event: ServerSentEvent) => boolean; resolve: (event: ServerSentEvent) => void }[] = [];
  const receive = (event: ServerSentEvent): void => {
    if (event.event === 'ping') return;
    events.push(event);
    for (const waiter of waiters.filter((w) => w.match(event))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  };
  void (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const parsed = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (parsed !== undefined) receive(parsed);
      }
    }
  })().catch(() => undefined);
  return {
    status: response.status,
    headers: response.headers,
    events,
    messages: () => events.filter((event) => event.event === 'message').map((event) => event.data),
    waitFor(match) {
      const seen = events.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => controller.abort(),
  };
}
