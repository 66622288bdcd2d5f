import { randomUUID } from 'node:crypto';
import { createStagingJob } from '@staging/db/testing/factories';
import { enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call, seedActors, seedListing } from './support/fixtures';
import type { Actors, Listing } from './support/fixtures';
import { predictionBody, sendWebhook as sendProviderCallback } from './support/provider-callbacks';
import type { SendOptions } from './support/provider-callbacks';
import { isPlainProviderCallback } from '../src/webhooks/direct-provider-webhook';

const OTHER_SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

let api: ApiHarness;
let actors: Actors;
let listing: Listing;

beforeAll(async () => {
  api = await startApi();
  actors = await seedActors(api.db);
  listing = await seedListing(api.db, api.storage, actors);
});
afterAll(async () => {
  await api.close();
  await stopS3();
});

function sendWebhook(attemptId: string, options: SendOptions): Promise<Response> {
  return sendProviderCallback(api.url, attemptId, options);
}

/** A waiting-for-provider job: PROCESSING, attempt ACTIVE, queue message parked as delayed. */
async function parkedJob(): Promise<{ aiJobId: string; attemptId: string; predictionId: string }> {
  const predictionId = `pred_${randomUUID()}`;
  const job = await createStagingJob(api.db, {
    original: listing.original,
    job: { status: 'PROCESSING' },
    staging: { canonicalStyle: 'SCANDINAVIAN' },
    attempts: [{ status: 'ACTIVE', providerPredictionId: predictionId }],
  });
  await enqueueStagingJob(api.stagingQueue, job.id, { delayMs: 10 * 60_000 });
  expect(await api.stagingQueue.getJobState(job.id)).toBe('delayed');
  return { aiJobId: job.id, attemptId: job.attempts[0]!.id, predictionId };
}

async function snapshot(aiJobId: string, attemptId: string) {
  return {
    receipts: await api.db.aiProviderWebhookReceipt.count({ where: { providerAttemptId: attemptId } }),
    attempt: await api.db.aiProviderAttempt.findUniqueOrThrow({ where: { id: attemptId } }),
    job: await api.db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } }),
    queueState: await api.stagingQueue.getJobState(aiJobId),
  };
}

async function finishJob(aiJobId: string): Promise<void> {
  // Frees the dedupe key for the next test's job of the same style.
  await api.db.aiJob.update({ where: { id: aiJobId }, data: { status: 'SUCCESS', dedupeKey: `done:${aiJobId}` } });
  await api.stagingQueue.remove(aiJobId);
}

describe('provider webhook: verified callbacks', () => {
  it('answers 204, records one receipt and wakes the parked job', async () => {
    const job = await parkedJob();
    const webhookId = `msg_${randomUUID()}`;
    const response = await sendWebhook(job.attemptId, { body: predictionBody(job.predictionId), webhookId });
    expect(response.status).toBe(204);
    const receipt = await api.db.aiProviderWebhookReceipt.findUniqueOrThrow({ where: { webhookId } });
    expect(receipt).toMatchObject({ providerAttemptId: job.attemptId, providerPredictionId: job.predictionId, providerStatus: 'succeeded' });
    expect(await api.stagingQueue.getJobState(job.aiJobId)).toBe('waiting');
    await finishJob(job.aiJobId);
  });

  it('acknowledges a redelivery (same webhook-id) without a second receipt or any change', async () => {
    const job = await parkedJob();
    const webhookId = `msg_${randomUUID()}`;
    const body = predictionBody(job.predictionId);
    expect((await sendWebhook(job.attemptId, { body, webhookId })).status).toBe(204);
    const before = await snapshot(job.aiJobId, job.attemptId);
    const again = await sendWebhook(job.attemptId, { body, webhookId, timestamp: new Date(Date.now() + 1000) });
    expect(again.status).toBe(204);
    const after = await snapshot(job.aiJobId, job.attemptId);
    expect(after.receipts).toBe(1);
    expect(after.attempt).toEqual(before.attempt);
    expect(after.job).toEqual(before.job);
    await finishJob(job.aiJobId);
  });

  it('fills the prediction id of a CREATING attempt whose create response was lost', async () => {
    const job = await createStagingJob(api.db, {
      original: listing.original,
      job: { status: 'PROCESSING' },
      staging: { canonicalStyle: 'INDUSTRIAL' },
      attempts: [{ status: 'CREATING' }],
    });
    const attemptId = job.attempts[0]!.id;
    const predictionId = `pred_${randomUUID()}`;
    expect((await sendWebhook(attemptId, { body: predictionBody(predictionId, 'processing') })).status).toBe(204);
    const attempt = await api.db.aiProviderAttempt.findUniqueOrThrow({ where: { id: attemptId } });
    expect(attempt.providerPredictionId).toBe(predictionId);
    // Not in the queue before: the wake-up adds the message.
    expect(await api.stagingQueue.getJobState(job.id)).toBe('waiting');
    await finishJob(job.id);
  });

  it('refuses a prediction that is not the attempt’s with 409, records it and changes nothing else', async () => {
    const job = await parkedJob();
    const response = await sendWebhook(job.attemptId, { body: predictionBody(`pred_${randomUUID()}`) });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('CONFLICT');
    const after = await snapshot(job.aiJobId, job.attemptId);
    expect(after.attempt.providerPredictionId).toBe(job.predictionId);
    expect(after.receipts).toBe(1);
    expect(after.queueState).toBe('delayed');
    expect(api.logs.events('alert').some((line) => line['errorCode'] === 'PREDICTION_MISMATCH')).toBe(true);
    await finishJob(job.aiJobId);
  });

  it('answers 404 for an unknown attempt after verification, and 401 first when unsigned', async () => {
    const unknown = randomUUID();
    const signed = await sendWebhook(unknown, { body: predictionBody('pred_x') });
    expect(signed.status).toBe(404);
    expect(((await signed.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const unsigned = await sendWebhook(unknown, { body: predictionBody('pred_x'), unsigned: true });
    expect(unsigned.status).toBe(401);
  });
});

describe('provider webhook: unverifiable callbacks get 401 and change nothing', () => {
  const cases: [string, (predictionId: string) => SendOptions][] = [
    ['unsigned', (id) => ({ body: predictionBody(id), unsigned: true })],
    ['bad signature', (id) => ({ body: predictionBody(id), headers: { 'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' } })],
    ['wrong secret', (id) => ({ body: predictionBody(id), secret: OTHER_SECRET })],
    ['timestamp 6 minutes old', (id) => ({ body: predictionBody(id), timestamp: new Date(Date.now() - 6 * 60_000) })],
    ['timestamp 6 minutes ahead', (id) => ({ body: predictionBody(id), timestamp: new Date(Date.now() + 6 * 60_000) })],
    [
      'body altered by one byte',
      (id) => {
        const body = predictionBody(id);
        return { body, sentBody: body.replace('"succeeded"', '"succeedee"') };
      },
    ],
    ['signature headers missing one', (id) => ({ body: predictionBody(id), headers: { 'webhook-timestamp': '' } })],
  ];

  it.each(cases)('%s → 401 INVALID_SIGNATURE', async (_name, build) => {
    const job = await parkedJob();
    const before = await snapshot(job.aiJobId, job.attemptId);
    const response = await sendWebhook(job.attemptId, build(job.predictionId));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_SIGNATURE', message: expect.any(String) } });
    expect(await snapshot(job.aiJobId, job.attemptId)).toEqual(before);
    await finishJob(job.aiJobId);
  });

  it('stays within the window: 4 minutes old and 4 minutes ahead are accepted', async () => {
    for (const offset of [-4 * 60_000, 4 * 60_000]) {
      const job = await parkedJob();
      const response = await sendWebhook(job.attemptId, { body: predictionBody(job.predictionId), timestamp: new Date(Date.now() + offset) });
      expect(response.status).toBe(204);
      await finishJob(job.aiJobId);
    }
  });
});

describe('provider webhook: the route answers directly, never with a 3xx', () => {
  it('serves the trailing-slash path like the canonical one', async () => {
    const job = await parkedJob();
    const response = await sendWebhook(job.attemptId, {
      body: predictionBody(job.predictionId),
      path: `/api/webhooks/provider/staging/${job.attemptId}/`,
    });
    expect(response.status).toBe(204);
    expect(await api.stagingQueue.getJobState(job.aiJobId)).toBe('waiting');
    await finishJob(job.aiJobId);
  });

  it.each(['http', 'https'])('X-Forwarded-Proto %s is served in place', async (proto) => {
    const job = await parkedJob();
    const response = await sendWebhook(job.attemptId, {
      body: predictionBody(job.predictionId),
      headers: { 'x-forwarded-proto': proto, 'x-forwarded-host': 'api.example.com' },
    });
    expect(response.status).toBe(204);
    await finishJob(job.aiJobId);
  });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD'])('%s → 405 JSON, no redirect', async (method) => {
    for (const suffix of ['', '/']) {
      const response = await fetch(`${api.url}/api/webhooks/provider/staging/${randomUUID()}${suffix}`, { method, redirect: 'manual' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.headers.get('location')).toBeNull();
      if (method !== 'HEAD') expect(((await response.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('never logs the signature or the body', async () => {
    const job = await parkedJob();
    const marker = `pred_secretmarker_${randomUUID()}`;
    await sendWebhook(job.attemptId, { body: predictionBody(marker) });
    const text = api.logs.text();
    expect(text).not.toContain('v1,');
    expect(text).not.toContain('provider.example/out.jpg');
    await finishJob(job.aiJobId);
  });
});

describe('provider webhook: the direct path and the Express route answer alike', () => {
  // Plain callbacks are answered before Express (create-server.ts); a trailing slash or a body
  // without Content-Length goes through the Express route. Each outcome must look the same both
  // ways: status, headers, body and the request's completion line.
  const ways: [string, { chunked?: boolean; route?: (attemptId: string) => string }][] = [
    ['plain (direct)', {}],
    ['trailing slash (Express)', { route: (attemptId) => `/api/webhooks/provider/staging/${attemptId}/` }],
    ['chunked body (Express)', { chunked: true }],
  ];
  type Outcome = 'accepted' | 'bad signature' | 'unknown attempt' | 'other prediction';

  async function observe(outcome: Outcome, way: (typeof ways)[number][1]) {
    const job = await parkedJob();
    const requestId = `trace-${randomUUID()}`;
    const attemptId = outcome === 'unknown attempt' ? randomUUID() : job.attemptId;
    const predictionId = outcome === 'other prediction' ? `pred_${randomUUID()}` : job.predictionId;
    const response = await sendWebhook(attemptId, {
      body: predictionBody(predictionId),
      headers: { 'x-request-id': requestId, ...(outcome === 'bad signature' ? { 'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' } : {}) },
      ...(way.chunked === true ? { chunked: true } : {}),
      ...(way.route === undefined ? {} : { path: way.route(attemptId) }),
    });
    const text = await response.text();
    const completion = api.logs.lines().find((line) => (line['req'] as { id?: string } | undefined)?.id === requestId && line['msg'] === 'request completed');
    const seen = {
      status: response.status,
      contentType: response.headers.get('content-type'),
      requestId: response.headers.get('x-request-id'),
      nosniff: response.headers.get('x-content-type-options'),
      frameAncestors: response.headers.get('content-security-policy'),
      body: text === '' ? null : (JSON.parse(text) as unknown),
      receipts: await api.db.aiProviderWebhookReceipt.count({ where: { providerAttemptId: attemptId } }),
      queueState: await api.stagingQueue.getJobState(job.aiJobId),
      completion: completion === undefined ? undefined : { status: (completion['res'] as { statusCode: number }).statusCode, method: (completion['req'] as { method: string }).method, event: completion['event'], wake: completion['wake'], level: completion['level'], timed: typeof completion['responseTime'] === 'number' },
    };
    await finishJob(job.aiJobId);
    return seen;
  }

  it.each<Outcome>(['accepted', 'bad signature', 'unknown attempt', 'other prediction'])('%s', async (outcome) => {
    const seen = [];
    for (const [, way] of ways) seen.push(await observe(outcome, way));
    expect(seen[0]!.completion).toBeDefined();
    expect(seen[0]!.requestId).toMatch(/^trace-/);
    if (outcome === 'accepted') expect(seen[0]).toMatchObject({ status: 204, receipts: 1, queueState: 'waiting', completion: { event: 'provider_webhook.received', wake: 'promoted' } });
    for (const other of seen.slice(1)) expect({ ...other, requestId: 'same' }).toEqual({ ...seen[0], requestId: 'same' });
  });

  it('takes only a POST of the plain path with a declared length within the limit and no encoding', () => {
    const plain = { method: 'POST', url: `/api/webhooks/provider/staging/${randomUUID()}`, headers: { 'content-length': '1000' } };
    expect(isPlainProviderCallback(plain)).toBe(true);
    expect(isPlainProviderCallback({ ...plain, headers: { 'content-length': '1000', 'content-encoding': 'identity' } })).toBe(true);
    expect(isPlainProviderCallback({ ...plain, method: 'PUT' })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, url: `${plain.url}/` })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, url: `${plain.url}?x=1` })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, url: '/api/webhooks/provider/staging/a%2Fb' })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, url: plain.url.toUpperCase() })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, url: `/api/webhooks/provider/staging/${'a'.repeat(64)}` })).toBe(true);
    expect(isPlainProviderCallback({ ...plain, url: `/api/webhooks/provider/staging/${'a'.repeat(65)}` })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, url: '/api/webhooks/provider/staging/' })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, headers: {} })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, headers: { 'content-length': String(256 * 1024 + 1) } })).toBe(false);
    expect(isPlainProviderCallback({ ...plain, headers: { 'content-length': '1000', 'content-encoding': 'gzip' } })).toBe(false);
  });
});

describe('app basics', () => {
  it('/healthz and /readyz answer 200 JSON', async () => {
    const health = await call(`${api.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await call(`${api.url}/readyz/`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });

  it('answers unknown paths with a JSON 404 and an X-Request-Id', async () => {
    const response = await call(`${api.url}/api/nope/${randomUUID()}`, { headers: { 'x-request-id': 'trace-123' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    const minted = await call(`${api.url}/`, { headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never answers with a 3xx, whatever the slash, scheme header or method', async () => {
    const paths = [
      '/healthz',
      '/readyz',
      '/api/auth/me',
      `/api/public/properties/${listing.propertyId}`,
      `/api/public/images/${listing.original.id}/content`,
      '/api/public/search',
      `/api/property-images/${listing.original.id}/content`,
      '/api/trpc/public.search',
      '/api',
      '/',
    ];
    for (const path of paths) {
      for (const variant of [path, `${path}/`, `/${path}`]) {
        for (const method of ['GET', 'HEAD', 'POST', 'OPTIONS']) {
          const response = await call(`${api.url}${variant}`, { method, cookie: actors.cookies.owner, headers: { 'x-forwarded-proto': 'https' } });
          expect([variant, method, response.status >= 300 && response.status < 400]).toEqual([variant, method, false]);
          expect(response.status).toBeLessThan(500);
        }
      }
    }
  });

  it('logs requests without cookies, queries or headers', async () => {
    const cookie = `sid=supersecretcookie${randomUUID()}`;
    await call(`${api.url}/api/auth/me?token=querysecret`, { cookie });
    const text = api.logs.text();
    expect(text).not.toContain('supersecretcookie');
    expect(text).not.toContain('querysecret');
    const line = api.logs.lines().find((l) => (l['req'] as { path?: string } | undefined)?.path === '/api/auth/me');
    expect(line).toBeDefined();
    expect(line!['req']).toEqual({ id: expect.any(String), method: 'GET', path: '/api/auth/me' });
  });
});
