import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
// The simulator must speak what the real client sends and signs what the real verifier accepts,
// so these tests use @staging/provider's sources directly (it is not a dependency of the
// simulator package, which must stay independent of the code it checks).
import { createProviderClient } from '@staging/provider/provider-client';
import { ProviderError } from '@staging/provider/provider-error';
import type { PredictionInput } from '@staging/provider/provider-wire';
import { verifyWebhook } from '@staging/provider/webhook-signing';
import { predictionInputFor, startWebhookReceiver, useSimulatorTestContext, waitFor } from './test-helpers';

const TOKEN = 'sim-token-0123456789';
const SECRET = `whsec_${Buffer.from('simulator signing key of 32 byte').toString('base64')}`;
const MODEL = 'openai/gpt-image-2';

const ctx = useSimulatorTestContext(
  {
    token: TOKEN,
    webhookSigningSecret: SECRET,
    host: '127.0.0.1',
    completionDelayMs: 150,
    listPageSize: 2,
    webhookRetryDelaysMs: [50, 100],
  },
  { '/not-a-photo.jpg': { body: Buffer.from('<html>login required</html>'), contentType: 'image/jpeg' } },
);

const client = (token = TOKEN) => createProviderClient({ baseUrl: ctx.sim.url, token });

const input = (overrides: Partial<PredictionInput> = {}) =>
  predictionInputFor(`${ctx.files.origin}/photo.jpg?X-Amz-Signature=abc`, overrides);

const webhookFor = (attempt: string) => `${ctx.receiver.origin}/api/webhooks/provider/staging/${attempt}`;

async function rawRequest(path: string, init: RequestInit & { auth?: string | null } = {}) {
  const headers = new Headers(init.headers);
  if (init.auth !== null) headers.set('authorization', init.auth ?? `Bearer ${TOKEN}`);
  if (init.body) headers.set('content-type', 'application/json');
  const response = await fetch(`${ctx.sim.origin}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

describe('happy path', () => {
  it('creates, processes, succeeds and calls back with a signed webhook the provider package verifies', async () => {
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-1') });
    expect(created.status).toBe('starting');
    // The input is echoed exactly as sent: no defaults filled in, so it can be matched later.
    expect(created.input).toEqual(input());

    const [callback] = await waitFor(() => ctx.receiver.received.length === 1 && ctx.receiver.received, { what: 'completion webhook' });
    expect(callback?.path).toBe('/api/webhooks/provider/staging/att-1');
    expect(callback?.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]{27}$/);
    expect(Math.abs(Number(callback?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(callback?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = verifyWebhook({ secret: SECRET, rawBody: callback?.rawBody ?? Buffer.alloc(0), headers: callback?.headers ?? {} });
    expect(verified).toMatchObject({ id: created.id, status: 'succeeded', error: null });

    const fetched = await client().getPrediction(created.id);
    expect(fetched.status).toBe('succeeded');
    expect(fetched.output).toEqual(verified.output);
    expect(fetched.completed_at).toEqual(expect.any(String));
    expect(fetched.output).toEqual([expect.stringMatching(new RegExp(`^${ctx.sim.origin}/files/[a-z0-9]+\\.jpeg$`))]);

    // The input photo was really fetched, with its query string intact.
    expect(ctx.files.requested).toContain('/photo.jpg?X-Amz-Signature=abc');
  });

  it('serves a real, visibly changed image in the requested format and aspect ratio', async () => {
    const plain = await sharp(ctx.photo).resize(1024, 1024, { fit: 'cover' }).stats();
    for (const [aspect, format, width, height] of [
      ['1:1', 'jpeg', 1024, 1024],
      ['3:2', 'png', 1536, 1024],
      ['2:3', 'webp', 1024, 1536],
    ] as const) {
      const created = await client().createPrediction({
        model: MODEL,
        input: input({ aspect_ratio: aspect, output_format: format }),
        webhook: webhookFor(`att-${aspect}`),
      });
      await ctx.sim.completePrediction(created.id);
      const { output } = await client().getPrediction(created.id);
      const url = Array.isArray(output) ? output[0] : output;
      const response = await fetch(url ?? '');
      expect(response.headers.get('content-type')).toBe(`image/${format}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format, width, height });
      if (aspect === '1:1') {
        // Tint, frame and banner move the channel means well away from a plain resize.
        const staged = await sharp(bytes).stats();
        const drift = staged.channels.slice(0, 3).reduce((sum, c, i) => sum + Math.abs(c.mean - (plain.channels[i]?.mean ?? 0)), 0);
        expect(drift).toBeGreaterThan(20);
      }
    }
  });

  it('lists every prediction with its input, status and deliveries on the control API', async () => {
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-ctl') });
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'webhook' });
    await ctx.sim.settle();
    const { json } = await rawRequest('/__sim/predictions', { auth: null });
    const predictions = json?.['predictions'] as Array<Record<string, unknown>>;
    expect(json?.['count']).toBe(1);
    expect(predictions).toHaveLength(1);
    expect(predictions[0]).toMatchObject({
      id: created.id,
      status: 'succeeded',
      input: { prompt: input().prompt },
      fault: null,
      deliveries: [{ attempt: 1, responseStatus: 204, predictionStatus: 'succeeded' }],
    });
  });

  it('accepts POST /predictions with version owner/name', async () => {
    const { status, json } = await rawRequest('/v1/predictions', {
      method: 'POST',
      body: JSON.stringify({ version: MODEL, input: input(), webhook: webhookFor('att-v') }),
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({ model: MODEL, status: 'starting' });
  });

  it('sends a start callback only when the filter asks for it, and no completion callback it did not ask for', async () => {
    const { json } = await rawRequest(`/v1/models/${MODEL}/predictions`, {
      method: 'POST',
      body: JSON.stringify({ input: input(), webhook: webhookFor('att-start'), webhook_events_filter: ['start'] }),
    });
    await ctx.sim.completePrediction(String(json?.['id']));
    await ctx.sim.settle();
    expect(ctx.receiver.received).toHaveLength(1);
    const body = JSON.parse(ctx.receiver.received[0]?.rawBody.toString() ?? '{}') as { status: string };
    expect(body.status).toBe('starting');
  });
});

describe('auth', () => {
  it.each([
    ['no Authorization header', null],
    ['a wrong token', 'Bearer wrong'],
    ['the right token with another scheme', `Token ${TOKEN}`],
  ])('answers 401 with a JSON detail for %s', async (_label, auth) => {
    const { status, json } = await rawRequest('/v1/predictions', { auth });
    expect(status).toBe(401);
    expect(json?.['detail']).toEqual(expect.any(String));
  });

  it('surfaces as a ProviderError of kind auth in the client and buys nothing', async () => {
    const error = await client('wrong').createPrediction({ model: MODEL, input: input(), webhook: webhookFor('x') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('auth');
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it('serves output files without credentials, like a delivery CDN', async () => {
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-f') });
    await ctx.sim.completePrediction(created.id);
    const output = ctx.sim.state.predictions.get(created.id)?.output?.[0] ?? '';
    expect((await fetch(output)).status).toBe(200);
  });
});

describe('input validation', () => {
  it.each([
    ['an unknown aspect ratio', { aspect_ratio: '16:9' }, 'input.aspect_ratio'],
    ['an unknown output format', { output_format: 'gif' }, 'input.output_format'],
    ['compression above 100', { output_compression: 101 }, 'input.output_compression'],
    ['compression below 0', { output_compression: -1 }, 'input.output_compression'],
    ['a fractional compression', { output_compression: 50.5 }, 'input.output_compression'],
    ['an unknown quality', { quality: 'ultra' }, 'input.quality'],
    ['an empty prompt', { prompt: '  ' }, 'input.prompt'],
    ['no input image', { input_images: [] }, 'input.input_images'],
    ['a non-URL input image', { input_images: ['not a url'] }, 'input.input_images.0'],
  ])('rejects %s with 422 and buys nothing', async (_label, override, field) => {
    ctx.sim.enqueueFaults(['fail']);
    const { status, json } = await rawRequest(`/v1/models/${MODEL}/predictions`, {
      method: 'POST',
      body: JSON.stringify({ input: { ...input(), ...override }, webhook: webhookFor('x') }),
    });
    expect(status).toBe(422);
    expect(json?.['invalid_fields']).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(ctx.sim.state.predictions.size).toBe(0);
    // An invalid request does not consume a scripted fault.
    expect(ctx.sim.state.faults.map((f) => f.name)).toEqual(['fail']);
  });

  it('maps a 422 to a ProviderError of kind invalid', async () => {
    const error = await client()
      .createPrediction({ model: MODEL, input: input({ aspect_ratio: '4:3' }), webhook: webhookFor('x') })
      .catch((e: unknown) => e);
    expect((error as ProviderError).kind).toBe('invalid');
  });

  it('answers 404 for an unknown model and 422 for an unknown version', async () => {
    const unknownModel = await rawRequest('/v1/models/acme/nope/predictions', { method: 'POST', body: JSON.stringify({ input: input() }) });
    expect(unknownModel.status).toBe(404);
    const unknownVersion = await rawRequest('/v1/predictions', { method: 'POST', body: JSON.stringify({ version: 'acme/nope', input: input() }) });
    expect(unknownVersion.status).toBe(422);
  });

  it('refuses webhook or input image URLs outside loopback', async () => {
    for (const body of [
      { input: input(), webhook: 'https://api.example.com/api/webhooks/provider/staging/x' },
      { input: input({ input_images: ['https://bucket.example.com/photo.jpg'] }), webhook: webhookFor('x') },
    ]) {
      const { status } = await rawRequest(`/v1/models/${MODEL}/predictions`, { method: 'POST', body: JSON.stringify(body) });
      expect(status).toBe(422);
    }
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it.each([
    ['an unknown body field', `/v1/models/${MODEL}/predictions`, { input: 'INPUT', priority: 'high' }],
    ['a version on the model-scoped route', `/v1/models/${MODEL}/predictions`, { input: 'INPUT', version: MODEL }],
    ['an unknown body field beside version', '/v1/predictions', { input: 'INPUT', version: MODEL, webhook_url: 'x' }],
  ])('rejects %s with 422 (Replicate\'s request schemas allow no other fields)', async (_label, path, body) => {
    const { status } = await rawRequest(path, { method: 'POST', body: JSON.stringify({ ...body, input: input() }) });
    expect(status).toBe(422);
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { status } = await rawRequest(`/v1/models/${MODEL}/predictions`, { method: 'POST', body: '{not json' });
    expect(status).toBe(400);
  });

  it('fails the prediction (permanently) when the input image cannot be downloaded', async () => {
    const created = await client().createPrediction({
      model: MODEL,
      input: input({ input_images: [`${ctx.files.origin}/missing.jpg`] }),
      webhook: webhookFor('att-missing'),
    });
    await ctx.sim.completePrediction(created.id);
    expect(await client().getPrediction(created.id)).toMatchObject({ status: 'failed', error: 'Failed to download input image (HTTP 404)' });
  });

  it('fails the prediction (permanently) when the input image is not an image', async () => {
    const created = await client().createPrediction({
      model: MODEL,
      input: input({ input_images: [`${ctx.files.origin}/not-a-photo.jpg`] }),
      webhook: webhookFor('att-html'),
    });
    await ctx.sim.completePrediction(created.id);
    const result = await client().getPrediction(created.id);
    expect(result).toMatchObject({ status: 'failed', error: expect.stringContaining('Failed to load input image') });
  });
});

describe('model schema', () => {
  it('describes the allowed inputs the way Replicate does', async () => {
    const model = await client().getModel('openai', 'gpt-image-2');
    expect(model).toMatchObject({
      owner: 'openai',
      name: 'gpt-image-2',
      latestVersionId: expect.any(String),
      input: {
        aspectRatio: ['1:1', '3:2', '2:3'],
        quality: ['low', 'medium', 'high', 'auto'],
        outputFormat: ['jpeg', 'png', 'webp'],
        outputCompression: { minimum: 0, maximum: 100 },
      },
    });
    expect(model.input.inputNames).toEqual(expect.arrayContaining(['prompt', 'input_images', 'user_id']));
  });

  it('answers 404 for a model it does not serve', async () => {
    const error = await client().getModel('acme', 'nope').catch((e: unknown) => e);
    expect((error as ProviderError).kind).toBe('not_found');
  });
});

describe('list', () => {
  it('pages newest first with a cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor(`att-list-${i}`) })).id);
    }
    const seen: (string | null)[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await client().listPredictions({ next: cursor });
      pages += 1;
      expect(page.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.results.map((p) => (p.readable ? p.id : null)));
      if (pages === 1) {
        // A purchase between pages must neither shift nor duplicate older entries.
        await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-late') });
        expect(seen[0]).toBe(ids[4]);
      }
      cursor = page.next;
    } while (cursor !== null);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
  });

  it('rejects a malformed cursor with 400', async () => {
    expect((await rawRequest('/v1/predictions?cursor=%%%')).status).toBe(400);
  });
});

describe('cancel', () => {
  it('cancels a running prediction, calls back with canceled once, and stays canceled', async () => {
    ctx.sim.enqueueFaults(['never_complete']);
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-cancel') });
    await waitFor(() => ctx.sim.state.predictions.get(created.id)?.status === 'processing', { what: 'processing' });
    const canceled = await client().cancelPrediction(created.id);
    expect(canceled.status).toBe('canceled');
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'cancel webhook' });
    const payload = verifyWebhook({ secret: SECRET, rawBody: ctx.receiver.received[0]?.rawBody ?? '', headers: ctx.receiver.received[0]?.headers ?? {} });
    expect(payload).toMatchObject({ id: created.id, status: 'canceled', output: null });

    expect((await client().cancelPrediction(created.id)).status).toBe('canceled');
    await ctx.sim.settle();
    expect(ctx.receiver.received).toHaveLength(1);
  });

  it('returns a finished prediction unchanged and calls back no more', async () => {
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-done') });
    await ctx.sim.completePrediction(created.id);
    await ctx.sim.settle();
    const before = await rawRequest(`/v1/predictions/${created.id}`);
    const canceled = await rawRequest(`/v1/predictions/${created.id}/cancel`, { method: 'POST' });
    expect(canceled.status).toBe(200);
    expect(canceled.json).toEqual(before.json);
    expect(canceled.json?.['status']).toBe('succeeded');
    await ctx.sim.settle();
    expect(ctx.receiver.received).toHaveLength(1);
  });

  it('answers 404 for an unknown prediction', async () => {
    const error = await client().cancelPrediction('nope').catch((e: unknown) => e);
    expect((error as ProviderError).kind).toBe('not_found');
  });
});

describe('webhook redelivery', () => {
  it('redelivers a terminal callback after non-2xx answers with the same webhook-id, freshly signed', async () => {
    await ctx.receiver.stop();
    ctx.receiver = await startWebhookReceiver((n) => (n < 3 ? 503 : 200));
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-retry') });
    await waitFor(() => ctx.receiver.received.length === 3, { what: 'three deliveries' });
    const ids = new Set(ctx.receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const delivery of ctx.receiver.received) {
      expect(verifyWebhook({ secret: SECRET, rawBody: delivery.rawBody, headers: delivery.headers }).id).toBe(created.id);
    }
    await ctx.sim.settle();
    expect(ctx.sim.state.predictions.get(created.id)?.deliveries.map((d) => d.responseStatus)).toEqual([503, 503, 200]);
  });

  it('gives up after the retry budget when the receiver keeps failing', async () => {
    await ctx.receiver.stop();
    ctx.receiver = await startWebhookReceiver(() => 500);
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-down') });
    await ctx.sim.completePrediction(created.id);
    await ctx.sim.settle();
    // One try plus two redeliveries (webhookRetryDelaysMs has two entries).
    expect(ctx.receiver.received).toHaveLength(3);
    expect(ctx.sim.state.predictions.get(created.id)?.deliveries.map((d) => d.next)).toEqual(['retry', 'retry', 'gave_up']);
  });

  it('records a transport failure and retries it', async () => {
    const gone = await startWebhookReceiver();
    const url = `${gone.origin}/api/webhooks/provider/staging/att-gone`;
    await gone.stop();
    const created = await client().createPrediction({ model: MODEL, input: input(), webhook: url });
    await ctx.sim.completePrediction(created.id);
    await ctx.sim.settle();
    const deliveries = ctx.sim.state.predictions.get(created.id)?.deliveries ?? [];
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d) => d.responseStatus === null && d.error !== null)).toBe(true);
  });
});

describe('control API', () => {
  it('queues faults over HTTP, rejects unknown names and resets', async () => {
    expect((await rawRequest('/__sim/faults', { method: 'POST', body: JSON.stringify(['slow', { name: 'http_429', retryAfterSeconds: 3 }]) })).json).toEqual({
      queued: [{ name: 'slow' }, { name: 'http_429', retryAfterSeconds: 3 }],
    });
    const bad = await rawRequest('/__sim/faults', { method: 'POST', body: JSON.stringify(['explode']) });
    expect(bad.status).toBe(400);
    await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-r') });
    expect((await rawRequest('/__sim/reset', { method: 'POST' })).status).toBe(200);
    expect(ctx.sim.state.faults).toEqual([]);
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it('gives a fault kept for some photos only to a create with one of them', async () => {
    const queued = await rawRequest('/__sim/faults', { method: 'POST', body: JSON.stringify([{ name: 'never_complete', inputImageContains: 'mine/' }]) });
    expect(queued.status).toBe(200);
    const other = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-other') });
    expect(ctx.sim.state.predictions.get(other.id)?.fault).toBeNull();
    expect(ctx.sim.state.faults).toHaveLength(1);
    const mine = await client().createPrediction({
      model: MODEL,
      input: predictionInputFor(`${ctx.files.origin}/mine/photo.jpg?X-Amz-Signature=abc`),
      webhook: webhookFor('att-mine'),
    });
    expect(ctx.sim.state.predictions.get(mine.id)?.fault?.name).toBe('never_complete');
    expect(ctx.sim.state.faults).toEqual([]);
  });

  it('forces completion over HTTP, including a chosen failure', async () => {
    ctx.sim.enqueueFaults(['never_complete', 'never_complete']);
    const a = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-a') });
    const b = await client().createPrediction({ model: MODEL, input: input(), webhook: webhookFor('att-b') });
    expect((await rawRequest(`/__sim/predictions/${a.id}/complete`, { method: 'POST' })).json).toMatchObject({ status: 'succeeded' });
    const aborted = await rawRequest(`/__sim/predictions/${b.id}/complete`, { method: 'POST', body: JSON.stringify({ status: 'aborted' }) });
    expect(aborted.json).toMatchObject({ status: 'aborted' });
    expect((await rawRequest('/__sim/predictions/nope/complete', { method: 'POST' })).status).toBe(404);
  });
});

describe('create headers', () => {
  const createWith = (headers: Record<string, string>) =>
    rawRequest(`/v1/models/${MODEL}/predictions`, { method: 'POST', headers, body: JSON.stringify({ input: input(), webhook: webhookFor('hdr') }) });

  it.each([
    ['30', 30_000],
    ['5', 5_000],
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h30m45s', 5_445_000],
  ])('reads Cancel-After %s as a deadline %i ms after creation', async (value, ms) => {
    const { status, json } = await createWith({ 'Cancel-After': value });
    expect(status).toBe(201);
    expect(Date.parse(String(json?.['deadline'])) - Date.parse(String(json?.['created_at']))).toBe(ms);
  });

  it.each([['4'], ['4s'], ['500ms'], ['1.5m'], ['soon'], ['']])('refuses Cancel-After %p (below 5 s or not a duration) and buys nothing', async (value) => {
    const { status } = await createWith({ 'Cancel-After': value });
    expect(status).toBe(400);
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it('shows no deadline without Cancel-After', async () => {
    const { json } = await createWith({});
    expect(json).not.toHaveProperty('deadline');
  });

  it('Prefer: wait holds the answer until the prediction is terminal', async () => {
    const { status, json } = await createWith({ Prefer: 'wait=10' });
    expect(status).toBe(201);
    expect(json?.['status']).toBe('succeeded');
  });

  it('refuses a Prefer value outside wait or wait=1..60', async () => {
    expect((await createWith({ Prefer: 'wait=61' })).status).toBe(400);
    expect(ctx.sim.state.predictions.size).toBe(0);
  });
});
