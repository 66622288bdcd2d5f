/**
 * Strict mode (the default) serves only what Replicate documents; see docs/decisions/provider.md,
 * "Provider simulator: what Replicate guarantees". Each test names the behaviour it pins.
 */
import { describe, expect, it } from '@jest/globals';
// See simulator.integration.test.ts for why the provider package is imported by path.
import { createProviderClient } from '@staging/provider/provider-client';
import { ProviderError } from '@staging/provider/provider-error';
import { verifyWebhook } from '@staging/provider/webhook-signing';
import { DOCUMENTED_PREDICTION_FIELDS, UNDOCUMENTED_WEBHOOK_FIELDS } from './prediction-document';
import { startProviderSimulator } from './simulator';
import type { ProviderSimulator, ProviderSimulatorOptions } from './simulator';
import { predictionInputFor, startWebhookReceiver, useSimulatorTestContext, waitFor } from './test-helpers';

const TOKEN = 'sim-token-strict';
const SECRET = `whsec_${Buffer.from('strict simulator signing key 32b').toString('base64')}`;
const MODEL = 'openai/gpt-image-2';
const ALL_EVENTS = ['start', 'output', 'logs', 'completed'] as const;
const BASE_OPTIONS = { token: TOKEN, webhookSigningSecret: SECRET, completionDelayMs: 100, webhookRetryDelaysMs: [20, 40, 80] };

const ctx = useSimulatorTestContext({ ...BASE_OPTIONS, listPageSize: 2 });

const input = (tag: string) =>
  predictionInputFor(`${ctx.files.origin}/photo.jpg?tag=${tag}`, { aspect_ratio: '3:2', quality: 'low', output_format: 'webp' });

async function call(sim: ProviderSimulator, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${TOKEN}`);
  if (init.body) headers.set('content-type', 'application/json');
  const response = await fetch(`${sim.origin}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

function createRaw(sim: ProviderSimulator, tag: string, events: readonly string[] = ALL_EVENTS) {
  return call(sim, `/v1/models/${MODEL}/predictions`, {
    method: 'POST',
    body: JSON.stringify({ input: input(tag), webhook: `${ctx.receiver.origin}/hook/${tag}`, webhook_events_filter: events }),
  });
}

/** Fails on any field Replicate does not document, `webhook` and `webhook_events_filter` above all. */
function expectDocumentedOnly(document: unknown) {
  expect(document).toEqual(expect.any(Object));
  const keys = Object.keys(document as object);
  for (const field of UNDOCUMENTED_WEBHOOK_FIELDS) expect(keys).not.toContain(field);
  expect(keys.sort()).toEqual([...DOCUMENTED_PREDICTION_FIELDS].sort());
}

async function withSimulator<T>(options: Partial<ProviderSimulatorOptions>, run: (sim: ProviderSimulator) => Promise<T>): Promise<T> {
  const sim = await startProviderSimulator({ ...BASE_OPTIONS, ...options });
  try {
    return await run(sim);
  } finally {
    await sim.stop();
  }
}

describe('documented fields only', () => {
  it('never shows webhook or webhook_events_filter in create, get, list, cancel or any webhook body', async () => {
    const created = await createRaw(ctx.sim, 'fields');
    expect(created.status).toBe(201);
    expectDocumentedOnly(created.json);
    const id = String(created.json['id']);

    const running = await createRaw(ctx.sim, 'fields-cancel', ['start', 'completed']);
    expectDocumentedOnly((await call(ctx.sim, `/v1/predictions/${String(running.json['id'])}/cancel`, { method: 'POST' })).json);

    await ctx.sim.completePrediction(id);
    await ctx.sim.settle();
    expectDocumentedOnly((await call(ctx.sim, `/v1/predictions/${id}`)).json);
    const list = await call(ctx.sim, '/v1/predictions');
    const results = list.json['results'] as unknown[];
    expect(results.length).toBeGreaterThan(0);
    results.forEach(expectDocumentedOnly);

    const bodies = ctx.receiver.received.map((r) => JSON.parse(r.rawBody.toString()) as Record<string, unknown>);
    const events = ctx.sim.state.predictions.get(id)?.deliveries.map((d) => d.event);
    expect(events).toEqual(['start', 'logs', 'output', 'completed']);
    expect(bodies.length).toBeGreaterThanOrEqual(5);
    bodies.forEach(expectDocumentedOnly);
  });

  it('types the documented fields as Replicate does', async () => {
    const created = await createRaw(ctx.sim, 'types', ['completed']);
    const id = String(created.json['id']);
    await ctx.sim.completePrediction(id);
    const { json } = await call(ctx.sim, `/v1/predictions/${id}`);
    expect(json).toEqual({
      id: expect.stringMatching(/^[a-z0-9]+$/),
      model: MODEL,
      version: expect.any(String),
      input: input('types'),
      logs: expect.any(String),
      output: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\/[a-z0-9]+\.webp$/)],
      data_removed: false,
      error: null,
      status: 'succeeded',
      created_at: expect.any(String),
      started_at: expect.any(String),
      completed_at: expect.any(String),
      urls: { get: `${ctx.sim.url}/predictions/${id}`, cancel: `${ctx.sim.url}/predictions/${id}/cancel`, web: expect.any(String) },
      metrics: { predict_time: expect.any(Number), total_time: expect.any(Number) },
      source: 'api',
    });
  });

  it('echoes the webhook fields in lenient mode only', async () => {
    await withSimulator({ mode: 'lenient' }, async (sim) => {
      const created = await createRaw(sim, 'lenient', ['completed']);
      expect(created.json).toMatchObject({ webhook: `${ctx.receiver.origin}/hook/lenient`, webhook_events_filter: ['completed'] });
    });
  });

  it('keeps the callback URL on the control API, which tests use to map predictions to attempts', async () => {
    const created = await createRaw(ctx.sim, 'control', ['completed']);
    const control = await call(ctx.sim, '/__sim/predictions');
    expect(control.json['predictions']).toEqual([
      expect.objectContaining({ id: created.json['id'], webhook: `${ctx.receiver.origin}/hook/control`, webhook_events_filter: ['completed'] }),
    ]);
  });
});

describe('list', () => {
  it('pages newest first with next and previous as full URLs', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(String((await createRaw(ctx.sim, `page-${i}`, ['completed'])).json['id']));
    const newestFirst = [...ids].reverse();
    const pages: string[][] = [];
    let page = (await call(ctx.sim, '/v1/predictions')).json;
    expect(page['previous']).toBeNull();
    for (;;) {
      pages.push((page['results'] as { id: string }[]).map((p) => p.id));
      if (page['next'] === null) break;
      expect(page['next']).toEqual(expect.stringMatching(new RegExp(`^${ctx.sim.url}/predictions\\?cursor=[A-Za-z0-9_-]+$`)));
      page = (await call(ctx.sim, new URL(String(page['next'])).pathname + new URL(String(page['next'])).search)).json;
      expect(page['previous']).toEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/predictions\?cursor=/));
    }
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);

    // Walking back from the last page gives the same pages in reverse.
    const back: string[][] = [];
    while (page['previous'] !== null) {
      const previous = new URL(String(page['previous']));
      page = (await call(ctx.sim, previous.pathname + previous.search)).json;
      back.push((page['results'] as { id: string }[]).map((p) => p.id));
    }
    expect(back).toEqual([newestFirst.slice(2, 4), newestFirst.slice(0, 2)]);
  });

  it('serves 100 per page by default', async () => {
    await withSimulator({ completionDelayMs: 60_000 }, async (sim) => {
      for (let i = 0; i < 101; i += 1) expect((await createRaw(sim, `hundred-${i}`, ['completed'])).status).toBe(201);
      const first = (await call(sim, '/v1/predictions')).json;
      expect(first['results']).toHaveLength(100);
      const next = new URL(String(first['next']));
      expect((await call(sim, next.pathname + next.search)).json['results']).toHaveLength(1);
    });
  });

  it('spells its own origin in list links as told (linkHost), and the client follows them', async () => {
    await withSimulator({ listPageSize: 1, linkHost: 'localhost' }, async (sim) => {
      for (let i = 0; i < 2; i += 1) expect((await createRaw(sim, `spelled-${i}`, ['completed'])).status).toBe(201);
      const client = createProviderClient({ baseUrl: sim.url, token: TOKEN });
      const first = await client.listPredictions();
      expect(first.next).toEqual(expect.stringMatching(/^http:\/\/localhost:\d+\/v1\/predictions\?cursor=/));
      expect((await client.listPredictions({ next: first.next })).results).toHaveLength(1);
    });
  });

  it('answers the scripted status during a list outage, then lists again', async () => {
    expect((await call(ctx.sim, '/__sim/list-outage', { method: 'POST', body: JSON.stringify({ status: 503 }) })).json).toEqual({ listOutageStatus: 503 });
    const error = await createProviderClient({ baseUrl: ctx.sim.url, token: TOKEN }).listPredictions().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'server', status: 503 });
    await call(ctx.sim, '/__sim/list-outage', { method: 'POST', body: JSON.stringify({ status: null }) });
    expect((await call(ctx.sim, '/v1/predictions')).status).toBe(200);
  });
});

describe('webhooks', () => {
  it('sends start at once on creation, before the prediction runs', async () => {
    ctx.sim.enqueueFaults(['never_complete']);
    const created = await createRaw(ctx.sim, 'start', ['start', 'completed']);
    const deliveries = () => ctx.sim.state.predictions.get(String(created.json['id']))?.deliveries ?? [];
    // The simulator records a delivery once our receiver has answered it: wait for that record.
    await waitFor(() => deliveries().length === 1, { what: 'start webhook' });
    const delivery = ctx.receiver.received[0];
    const body = verifyWebhook({ secret: SECRET, rawBody: delivery?.rawBody ?? '', headers: delivery?.headers ?? {} });
    expect(body).toMatchObject({ id: created.json['id'], status: 'starting' });
    expect(deliveries().map((d) => d.event)).toEqual(['start']);
  });

  it('never retries output or logs callbacks', async () => {
    await ctx.receiver.stop();
    ctx.receiver = await startWebhookReceiver(() => 500);
    const created = await createRaw(ctx.sim, 'no-retry', ['output', 'logs']);
    await ctx.sim.completePrediction(String(created.json['id']));
    await ctx.sim.settle();
    const deliveries = ctx.sim.state.predictions.get(String(created.json['id']))?.deliveries ?? [];
    expect(deliveries.map((d) => [d.event, d.attempt, d.responseStatus, d.next])).toEqual([
      ['logs', 1, 500, 'gave_up'],
      ['output', 1, 500, 'gave_up'],
    ]);
  });

  it('retries the completed callback on the schedule with the same webhook-id, then gives up', async () => {
    await ctx.receiver.stop();
    ctx.receiver = await startWebhookReceiver(() => 503);
    const created = await createRaw(ctx.sim, 'give-up', ['completed']);
    const id = String(created.json['id']);
    await waitFor(() => ctx.sim.state.predictions.get(id)?.deliveries.some((d) => d.next === 'gave_up'), { what: 'the last try' });
    await ctx.sim.settle();
    const deliveries = ctx.sim.state.predictions.get(id)?.deliveries ?? [];
    // One try plus one redelivery per entry of webhookRetryDelaysMs ([20, 40, 80]).
    expect(deliveries.map((d) => [d.attempt, d.next])).toEqual([
      [1, 'retry'],
      [2, 'retry'],
      [3, 'retry'],
      [4, 'gave_up'],
    ]);
    expect(new Set(ctx.receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const delivery of ctx.receiver.received) {
      expect(verifyWebhook({ secret: SECRET, rawBody: delivery.rawBody, headers: delivery.headers })).toMatchObject({ id, status: 'succeeded' });
    }
  });

  it('uses Replicate’s default events (output and completed) when no filter is given', async () => {
    const created = await call(ctx.sim, `/v1/models/${MODEL}/predictions`, {
      method: 'POST',
      body: JSON.stringify({ input: input('default'), webhook: `${ctx.receiver.origin}/hook/default` }),
    });
    await ctx.sim.completePrediction(String(created.json['id']));
    await ctx.sim.settle();
    expect(ctx.sim.state.predictions.get(String(created.json['id']))?.deliveries.map((d) => d.event)).toEqual(['output', 'completed']);
  });
});

describe('data retention', () => {
  it('removes input, output, logs and files after the retention period', async () => {
    await withSimulator({ dataRetentionMs: 50 }, async (sim) => {
      const created = await createRaw(sim, 'retention', ['completed']);
      const id = String(created.json['id']);
      const done = await sim.completePrediction(id);
      const file = done.output?.[0] ?? '';
      await waitFor(() => sim.state.predictions.get(id)?.data_removed, { what: 'data removal' });
      const { json } = await call(sim, `/v1/predictions/${id}`);
      expect(json).toMatchObject({ status: 'succeeded', data_removed: true, output: null, input: {}, logs: '' });
      expect((await fetch(file)).status).toBe(404);
      expect(((await call(sim, '/v1/predictions')).json['results'] as unknown[])[0]).toMatchObject({ id, data_removed: true, input: {} });
    });
  });

  it('removes one prediction’s data at once through the control API', async () => {
    const created = await createRaw(ctx.sim, 'remove-now', ['completed']);
    const id = String(created.json['id']);
    const done = await ctx.sim.completePrediction(id);
    const file = done.output?.[0] ?? '';
    expect((await fetch(file)).status).toBe(200);
    expect((await call(ctx.sim, `/__sim/predictions/${id}/remove-data`, { method: 'POST' })).json).toMatchObject({ id, data_removed: true });
    expect((await call(ctx.sim, `/v1/predictions/${id}`)).json).toMatchObject({ data_removed: true, output: null, input: {} });
    expect((await fetch(file)).status).toBe(404);
  });

  it('keeps data removed while running removed when the prediction completes', async () => {
    ctx.sim.enqueueFaults(['never_complete']);
    const id = String((await createRaw(ctx.sim, 'remove-running', ['completed'])).json['id']);
    ctx.sim.removeData(id);
    await ctx.sim.completePrediction(id);
    expect((await call(ctx.sim, `/v1/predictions/${id}`)).json).toMatchObject({ status: 'succeeded', data_removed: true, output: null, input: {} });
    expect(ctx.sim.state.files.size).toBe(0);
  });
});

describe('throttling', () => {
  it('limits creation per minute with the documented 429 body and no Retry-After header', async () => {
    await withSimulator({ createLimitPerMinute: 2 }, async (sim) => {
      expect((await createRaw(sim, 'rl-1', ['completed'])).status).toBe(201);
      expect((await createRaw(sim, 'rl-2', ['completed'])).status).toBe(201);
      const throttled = await createRaw(sim, 'rl-3', ['completed']);
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBeNull();
      expect(throttled.json).toEqual({ detail: expect.stringMatching(/^Request was throttled\. Your rate limit resets in ~\d+s\.$/) });
      expect(sim.state.predictions.size).toBe(2);
      const error = await createProviderClient({ baseUrl: sim.url, token: TOKEN })
        .createPrediction({ model: MODEL, input: input('rl-4'), webhook: `${ctx.receiver.origin}/hook/rl-4` })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe('throttled');
      expect((error as ProviderError).retryAfterSeconds).toBeGreaterThan(0);
      // Reading is not creation: the other endpoints stay available.
      expect((await call(sim, '/v1/predictions')).status).toBe(200);
    });
  });

  it('answers the http_429 fault the same way', async () => {
    ctx.sim.enqueueFaults([{ name: 'http_429', retryAfterSeconds: 12 }]);
    const throttled = await createRaw(ctx.sim, 'fault-429', ['completed']);
    expect(throttled.headers.get('retry-after')).toBeNull();
    expect(throttled.json).toEqual({ detail: 'Request was throttled. Your rate limit resets in ~12s.' });
  });
});

describe('model document', () => {
  it('describes openai/gpt-image-2 with the inputs the worker checks and an array-of-URIs output', async () => {
    const { json } = await call(ctx.sim, `/v1/models/${MODEL}`);
    const schemas = (json['latest_version'] as { openapi_schema: { components: { schemas: Record<string, Record<string, unknown>> } } }).openapi_schema.components
      .schemas;
    expect(Object.keys(schemas['Input']?.['properties'] as object)).toEqual(
      expect.arrayContaining(['prompt', 'input_images', 'aspect_ratio', 'quality', 'output_format', 'output_compression', 'user_id']),
    );
    expect(schemas['Input']?.['required']).toEqual(['prompt']);
    expect(schemas['Output']).toMatchObject({ type: 'array', items: { type: 'string', format: 'uri' } });
    expect(schemas['aspect_ratio']?.['enum']).toEqual(['1:1', '3:2', '2:3']);
    const model = await createProviderClient({ baseUrl: ctx.sim.url, token: TOKEN }).getModel('openai', 'gpt-image-2');
    expect(model.input).toMatchObject({ aspectRatio: ['1:1', '3:2', '2:3'], outputFormat: ['jpeg', 'png', 'webp'], outputCompression: { minimum: 0, maximum: 100 } });
  });
});
