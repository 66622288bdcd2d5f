import { randomUUID } from 'node:crypto';
import { enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call, seedActors, seedListing, seedStagingJob } from './support/fixtures';
import type { Actors, Listing } from './support/fixtures';
import { predictionBody, sendWebhook as sendProviderCallback } from './support/provider-callbacks';
import type { SendOptions } from './support/provider-callbacks';

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
  const job = await seedStagingJob(api.db, {
    propertyId: listing.propertyId,
    originalImageId: listing.original.id,
    predictionId,
    canonicalStyle: 'SCANDINAVIAN',
  });
  await enqueueStagingJob(api.stagingQueue, job.aiJobId, { delayMs: 10 * 60_000 });
  expect(await api.stagingQueue.getJobState(job.aiJobId)).toBe('delayed');
  return { ...job, predictionId };
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
    const job = await seedStagingJob(api.db, {
      propertyId: listing.propertyId,
      originalImageId: listing.original.id,
      attemptStatus: 'CREATING',
      predictionId: null,
      canonicalStyle: 'INDUSTRIAL',
    });
    const predictionId = `pred_${randomUUID()}`;
    expect((await sendWebhook(job.attemptId, { body: predictionBody(predictionId, 'processing') })).status).toBe(204);
    const attempt = await api.db.aiProviderAttempt.findUniqueOrThrow({ where: { id: job.attemptId } });
    expect(attempt.providerPredictionId).toBe(predictionId);
    // Not in the queue before: the wake-up adds the message.
    expect(await api.stagingQueue.getJobState(job.aiJobId)).toBe('waiting');
    await finishJob(job.aiJobId);
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

describe('app basics', () => {
  it('/healthz and /readyz answer 200 JSON', async () => {
    const health = await call(`${api.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await call(`${api.url}/readyz/`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
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
