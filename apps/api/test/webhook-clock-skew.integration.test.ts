/**
 * Callbacks of a provider whose clock is 10 minutes behind ours: refused by the plain ±5-minute
 * window (logged with the offsets, alerted once per interval) until the worker has measured the
 * provider's clock, then accepted on that clock (docs/decisions/provider.md "The provider's clock").
 */
import { randomUUID } from 'node:crypto';
import { createStagingJob } from '@staging/db/testing/factories';
import { createProviderClock, providerClockKey } from '@staging/services/staging/provider-clock';
import { enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { seedActors, seedListing } from './support/fixtures';
import type { Listing } from './support/fixtures';
import { predictionBody, sendWebhook } from './support/provider-callbacks';

const OTHER_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const BEHIND_MS = -10 * 60_000;

let api: ApiHarness;
let listing: Listing;

beforeAll(async () => {
  api = await startApi();
  listing = await seedListing(api.db, api.storage, await seedActors(api.db));
});
afterAll(async () => {
  await api.redis.del(providerClockKey(api.config.queueSuffix), `${providerClockKey(api.config.queueSuffix)}:refused-alert`);
  await api.close();
  await stopS3();
});

async function parkedJob(canonicalStyle: 'MODERN' | 'COASTAL') {
  const predictionId = `pred_${randomUUID()}`;
  const job = await createStagingJob(api.db, {
    original: listing.original,
    job: { status: 'PROCESSING' },
    staging: { canonicalStyle },
    attempts: [{ status: 'ACTIVE', providerPredictionId: predictionId }],
  });
  await enqueueStagingJob(api.stagingQueue, job.id, { delayMs: 10 * 60_000 });
  return { aiJobId: job.id, attemptId: job.attempts[0]!.id, predictionId };
}

/** A callback the provider signed `offsetMs` away from our now. */
function callback(job: { attemptId: string; predictionId: string }, offsetMs: number, secret?: string) {
  return sendWebhook(api.url, job.attemptId, {
    body: predictionBody(job.predictionId),
    timestamp: new Date(Date.now() + offsetMs),
    ...(secret === undefined ? {} : { secret }),
  });
}

const skewAlerts = () => api.logs.events('alert').filter((line) => line['errorCode'] === 'WEBHOOK_CLOCK_SKEW');
const receipts = (attemptId: string) => api.db.aiProviderWebhookReceipt.count({ where: { providerAttemptId: attemptId } });

describe('provider webhook: a provider clock 10 minutes behind', () => {
  it('is refused and alerted once before the clock is measured, and accepted on the measured clock after', async () => {
    const job = await parkedJob('MODERN');
    const clock = createProviderClock(api.redis, api.config.queueSuffix);

    // Anyone can send an old timestamp: a callback the provider did not sign raises no clock alert.
    expect((await callback(job, BEHIND_MS, OTHER_SECRET)).status).toBe(401);
    expect(skewAlerts()).toHaveLength(0);

    expect((await callback(job, BEHIND_MS)).status).toBe(401);
    expect((await callback(job, BEHIND_MS)).status).toBe(401);
    expect(await receipts(job.attemptId)).toBe(0);
    // One alert for the storm; a log line for each refusal, with how far off the timestamp was.
    expect(skewAlerts()).toHaveLength(1);
    const refusals = api.logs.events('provider_webhook.rejected').filter((line) => line['reason'] === 'timestamp_too_old');
    expect(refusals).toHaveLength(3);
    expect(refusals[1]).toMatchObject({ measuredOffsetMs: null });
    expect(Math.abs((refusals[1]!['timestampOffsetMs'] as number) - BEHIND_MS)).toBeLessThan(5_000);

    await clock.record({ offsetMs: BEHIND_MS, uncertaintyMs: 600, measuredAtMs: Date.now(), source: 'date-header' });
    expect((await callback(job, BEHIND_MS)).status).toBe(204);
    expect(await receipts(job.attemptId)).toBe(1);
    expect(await api.stagingQueue.getJobState(job.aiJobId)).toBe('waiting');

    // The 5-minute window stays, around the provider's clock: six minutes older than it is refused.
    expect((await callback(job, BEHIND_MS - 6 * 60_000)).status).toBe(401);
    expect(api.logs.events('provider_webhook.rejected').at(-1)).toMatchObject({ reason: 'timestamp_too_old', measuredOffsetMs: BEHIND_MS });
    // And a forged one is still refused on the provider's clock.
    expect((await callback(job, BEHIND_MS, OTHER_SECRET)).status).toBe(401);
    expect(await receipts(job.attemptId)).toBe(1);
  });

  it('stays refused when the measured offset is over an hour', async () => {
    const job = await parkedJob('COASTAL');
    await createProviderClock(api.redis, api.config.queueSuffix).record({
      offsetMs: -2 * 60 * 60_000,
      uncertaintyMs: 600,
      measuredAtMs: Date.now(),
      source: 'created-at',
    });
    expect((await callback(job, -2 * 60 * 60_000)).status).toBe(401);
    expect(await receipts(job.attemptId)).toBe(0);
  });
});
