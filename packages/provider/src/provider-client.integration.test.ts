import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderClient } from './provider-client';
import { isRetryableProviderError, parseRetryAfterSeconds, ProviderError, redactUrls } from './provider-error';
import type { Prediction } from './provider-wire';

// A real loopback HTTP server whose answer each test scripts; it records what the client sent.
interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const TOKEN = 'r8_test_token_do_not_log_0123456789';
let server: Server;
let origin: string;
let handler: Handler;
let recorded: Recorded[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      recorded.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  recorded = [];
  handler = (_req, res) => json(res, 500, { detail: 'no handler scripted' });
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function prediction(overrides: Partial<Prediction> = {}): Prediction {
  return {
    id: 'pred1',
    status: 'starting',
    output: null,
    error: null,
    created_at: '2026-11-22T10:00:00.000Z',
    webhook: 'https://api.example.test/api/webhooks/provider/staging/att-1',
    ...overrides,
  };
}

const client = () => createProviderClient({ baseUrl: `${origin}/v1/`, token: TOKEN, timeoutMs: 2_000 });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected the call to fail');
}

const createInput = {
  model: 'openai/gpt-image-2',
  input: {
    prompt: 'Stage this living room',
    input_images: ['http://127.0.0.1:4300/bucket/original.jpg?X-Amz-Signature=secret'],
    aspect_ratio: '1:1',
    quality: 'medium',
    output_format: 'jpeg',
    output_compression: 92,
    user_id: 'abc123',
  },
  webhook: 'https://api.example.test/api/webhooks/provider/staging/att-1',
};

describe('createPrediction', () => {
  it('POSTs the model-scoped endpoint with Bearer auth and a completed-only webhook filter', async () => {
    handler = (_req, res) => json(res, 201, prediction());
    const result = await client().createPrediction(createInput);
    expect(result).toMatchObject({ id: 'pred1', status: 'starting', output: null, error: null });
    expect(recorded).toHaveLength(1);
    const [request] = recorded;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/models/openai/gpt-image-2/predictions');
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      input: createInput.input,
      webhook: createInput.webhook,
      webhook_events_filter: ['completed'],
    });
  });

  it('rejects a model that is not owner/name before sending anything', async () => {
    await expect(client().createPrediction({ ...createInput, model: 'gpt-image-2' })).rejects.toThrow('owner/name');
    expect(recorded).toHaveLength(0);
  });
});

describe('reads', () => {
  it('gets and cancels a prediction by ID', async () => {
    handler = (req, res) =>
      json(res, 200, prediction({ status: req.url?.endsWith('/cancel') ? 'canceled' : 'processing', output: ['http://x.test/o.jpg'] }));
    expect((await client().getPrediction('pred1')).status).toBe('processing');
    expect((await client().cancelPrediction('pred1')).status).toBe('canceled');
    expect(recorded.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/predictions/pred1', 'POST /v1/predictions/pred1/cancel']);
  });

  it('accepts a single-URL output and normalises missing output/error to null', async () => {
    handler = (_req, res) => json(res, 200, { id: 'p', status: 'succeeded', output: 'http://x.test/o.png', created_at: '2026-01-01T00:00:00Z' });
    expect(await client().getPrediction('p')).toMatchObject({ output: 'http://x.test/o.png', error: null });
  });

  it('keeps a structured error as text instead of rejecting the prediction', async () => {
    handler = (_req, res) => json(res, 200, { ...prediction(), status: 'failed', error: { code: 'E1', message: 'boom' } });
    expect(await client().getPrediction('p')).toMatchObject({ status: 'failed', error: '{"code":"E1","message":"boom"}' });
  });

  it('lists a time span and follows the full next URL, filters included', async () => {
    handler = (req, res) => {
      const page2 = req.url?.includes('cursor=');
      json(res, 200, {
        previous: null,
        next: page2 ? null : `${origin}/v1/predictions?cursor=c%2F2&created_after=2026-11-25T09%3A55%3A00.000Z`,
        results: [prediction({ id: page2 ? 'older' : 'newer' })],
      });
    };
    const first = await client().listPredictions({ createdAfter: new Date('2026-11-25T09:55:00Z'), createdBefore: new Date('2026-11-25T10:05:00Z') });
    expect(first).toMatchObject({ results: [{ id: 'newer' }] });
    const second = await client().listPredictions({ next: first.next });
    expect(second).toMatchObject({ next: null, results: [{ id: 'older' }] });
    expect(recorded.map((r) => r.url)).toEqual([
      '/v1/predictions?created_after=2026-11-25T09%3A55%3A00.000Z&created_before=2026-11-25T10%3A05%3A00.000Z',
      '/v1/predictions?cursor=c%2F2&created_after=2026-11-25T09%3A55%3A00.000Z',
    ]);
  });

  it('reads each list entry on its own: an object output or a null input spoils only that entry, never the page', async () => {
    handler = (_req, res) =>
      json(res, 200, {
        next: null,
        results: [{ ...prediction({ id: 'llm' }), model: 'meta/llama', output: { text: 'x' }, input: null }, { status: 'succeeded' }],
      });
    const page = await client().listPredictions();
    expect(page.results).toMatchObject([{ readable: true, id: 'llm', input: null }, { readable: false }]);
  });

  it('follows a next link that spells the API origin another way, asking the configured base URL', async () => {
    handler = (req, res) => {
      const page2 = req.url?.includes('cursor=');
      json(res, 200, { next: page2 ? null : `${origin.replace('127.0.0.1', 'localhost')}/v1/predictions?cursor=c2`, results: [] });
    };
    const first = await client().listPredictions();
    expect(first.next).toEqual(expect.stringContaining('//localhost:'));
    await client().listPredictions({ next: first.next });
    expect(recorded.map((r) => [r.headers.host, r.url])).toEqual([
      [origin.slice('http://'.length), '/v1/predictions'],
      [origin.slice('http://'.length), '/v1/predictions?cursor=c2'],
    ]);
  });

  it('refuses a next link naming another origin: the page says which, and the token is never sent there', async () => {
    handler = (_req, res) => json(res, 200, { next: 'https://evil.example/v1/predictions?cursor=x', results: [prediction({ id: 'newer' })] });
    expect(await client().listPredictions()).toMatchObject({ next: null, refusedNextOrigin: 'https://evil.example', results: [{ id: 'newer' }] });
    await expect(client().listPredictions({ next: 'https://evil.example/v1/predictions?cursor=x' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(recorded).toHaveLength(1);
  });

  it('sends Cancel-After as a duration when asked', async () => {
    handler = (_req, res) => json(res, 201, prediction());
    await client().createPrediction({ model: 'openai/gpt-image-2', webhook: 'https://h.example/w', input: {} as never, cancelAfterSeconds: 90 });
    expect(recorded[0]?.headers['cancel-after']).toBe('1m30s');
  });

  it('takes a 202 create answer (documented beside 201) with its deadline as the created prediction', async () => {
    handler = (_req, res) => json(res, 202, prediction({ deadline: '2026-01-01T00:05:00.000Z' }));
    const created = await client().createPrediction({ model: 'openai/gpt-image-2', webhook: 'https://h.example/w', input: {} as never, cancelAfterSeconds: 300 });
    expect(created).toMatchObject({ status: 'starting', deadline: '2026-01-01T00:05:00.000Z' });
  });

  it('reads the model input constraints from latest_version.openapi_schema', async () => {
    handler = (_req, res) =>
      json(res, 200, {
        owner: 'openai',
        name: 'gpt-image-2',
        latest_version: {
          id: 'v1',
          openapi_schema: {
            components: {
              schemas: {
                Input: {
                  properties: {
                    aspect_ratio: { allOf: [{ $ref: '#/components/schemas/aspect_ratio' }] },
                    output_compression: { type: 'integer', minimum: 0, maximum: 100 },
                  },
                },
                aspect_ratio: { enum: ['1:1', '3:2', '2:3'] },
              },
            },
          },
        },
      });
    const model = await client().getModel('openai', 'gpt-image-2');
    expect(recorded[0]?.url).toBe('/v1/models/openai/gpt-image-2');
    expect(model).toMatchObject({
      owner: 'openai',
      name: 'gpt-image-2',
      latestVersionId: 'v1',
      input: { aspectRatio: ['1:1', '3:2', '2:3'], outputCompression: { minimum: 0, maximum: 100 } },
    });
  });
});

describe('errors', () => {
  it.each([401, 403])('maps HTTP %i to auth with the operator hint and no token', async (status) => {
    handler = (_req, res) => json(res, status, { detail: `Invalid token ${TOKEN}` });
    const error = await failure(client().getPrediction('p'));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(status);
    expect(error.message).toBe('provider rejected the API token or organization (HTTP 401/403): check PROVIDER_API_TOKEN on the worker');
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(TOKEN);
    expect(isRetryableProviderError(error)).toBe(false);
  });

  it.each([
    [404, 'not_found', false],
    [400, 'invalid', false],
    [422, 'invalid', false],
    [500, 'server', true],
    [502, 'server', true],
    [503, 'server', true],
  ] as const)('maps HTTP %i to %s (retryable: %s)', async (status, kind, retryable) => {
    handler = (_req, res) => json(res, status, { detail: 'something' });
    const error = await failure(client().getPrediction('p'));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(isRetryableProviderError(error)).toBe(retryable);
  });

  it('maps 429 to throttled with Retry-After from the header', async () => {
    handler = (_req, res) => json(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '7' });
    const error = await failure(client().createPrediction(createInput));
    expect(error).toMatchObject({ kind: 'throttled', status: 429, retryAfterSeconds: 7, operation: 'createPrediction' });
    expect(isRetryableProviderError(error)).toBe(true);
  });

  it('falls back to the wait stated in the 429 body', async () => {
    handler = (_req, res) => json(res, 429, { detail: 'Request was throttled. Expected available in 3 seconds.' });
    expect((await failure(client().createPrediction(createInput))).retryAfterSeconds).toBe(3);
  });

  it('keeps the provider detail of a 422 but strips query strings of URLs in it', async () => {
    handler = (_req, res) =>
      json(res, 422, { detail: 'input.input_images: could not fetch http://127.0.0.1:4300/b/o.jpg?X-Amz-Signature=abc123 (403)' });
    const error = await failure(client().createPrediction(createInput));
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain('http://127.0.0.1:4300/b/o.jpg?[redacted]');
    expect(error.message).not.toContain('abc123');
  });

  it('treats an unreadable 2xx body as a server error', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy</html>');
    };
    const error = await failure(client().getPrediction('p'));
    expect(error.kind).toBe('server');
    expect(isRetryableProviderError(error)).toBe(true);
  });

  it('treats an unknown status value as a server error, not as a prediction', async () => {
    handler = (_req, res) => json(res, 200, { ...prediction(), status: 'queued' });
    expect((await failure(client().getPrediction('p'))).kind).toBe('server');
  });

  it('maps a dropped connection to network', async () => {
    handler = (req) => req.socket.destroy();
    const error = await failure(client().createPrediction(createInput));
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(isRetryableProviderError(error)).toBe(true);
  });

  it('maps a slow provider to network with a timeout message', async () => {
    handler = () => undefined; // never answers
    const slow = createProviderClient({ baseUrl: `${origin}/v1`, token: TOKEN, timeoutMs: 150 });
    const error = await failure(slow.getPrediction('p'));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('timed out after 150 ms');
  });

  it('maps a refused connection to network', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = createProviderClient({ baseUrl: `http://127.0.0.1:${port}/v1`, token: TOKEN });
    expect((await failure(refused.getPrediction('p'))).kind).toBe('network');
  });

  it('does not follow redirects (a redirect would resend the token elsewhere)', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    };
    expect((await failure(client().getPrediction('p'))).kind).toBe('network');
    expect(recorded).toHaveLength(1);
  });

  it('uses an injected fetch', async () => {
    const calls: string[] = [];
    const fake: typeof fetch = async (input) => {
      calls.push(String(input));
      return new Response(JSON.stringify(prediction({ id: 'injected' })), { status: 200 });
    };
    const injected = createProviderClient({ baseUrl: 'https://provider.invalid/v1', token: TOKEN, fetch: fake });
    expect((await injected.getPrediction('x')).id).toBe('injected');
    expect(calls).toEqual(['https://provider.invalid/v1/predictions/x']);
  });

  it('isRetryableProviderError is false for anything that is not a ProviderError', () => {
    expect(isRetryableProviderError(new Error('server'))).toBe(false);
    expect(isRetryableProviderError({ kind: 'server' })).toBe(false);
  });
});

describe('parseRetryAfterSeconds', () => {
  it('reads delta seconds, HTTP dates and the body text', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(parseRetryAfterSeconds('2', undefined, now)).toBe(2);
    expect(parseRetryAfterSeconds('1.2', undefined, now)).toBe(2);
    expect(parseRetryAfterSeconds('Sun, 22 Nov 2026 10:00:05 GMT', undefined, now)).toBe(5);
    expect(parseRetryAfterSeconds(null, 'Expected available in 1 second.', now)).toBe(1);
    expect(parseRetryAfterSeconds(null, 'Request was throttled.', now)).toBeUndefined();
  });
});

describe('redactUrls', () => {
  it('drops query and fragment of every URL but keeps the rest of the text', () => {
    expect(redactUrls('a https://h.test/p?sig=1 b http://x.test/q#frag c https://plain.test/path')).toBe(
      'a https://h.test/p?[redacted] b http://x.test/q?[redacted] c https://plain.test/path',
    );
  });
});
