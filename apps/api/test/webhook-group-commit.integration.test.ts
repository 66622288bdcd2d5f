import { randomUUID } from 'node:crypto';
import { sqlPoolOf } from '@staging/db/client';
import type { SqlPool } from '@staging/db/client';
import { createStagingJob } from '@staging/db/testing/factories';
import { enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { createProviderCallbackRecorder } from '../src/webhooks/record-provider-callback';
import type { VerifiedCallback } from '@staging/services/staging/ledger/provider-callbacks';
import { captureLogs, startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { seedActors, seedListing } from './support/fixtures';
import type { Listing } from './support/fixtures';
import { predictionBody, sendWebhook } from './support/provider-callbacks';

// Callbacks that arrive while the statement slot is busy share one statement (group commit);
// each must still get the outcome it would have had alone. webhook.integration.test.ts covers
// each outcome for a callback on its own.

let api: ApiHarness;
let listing: Listing;

beforeAll(async () => {
  api = await startApi();
  listing = await seedListing(api.db, api.storage, await seedActors(api.db));
});
afterAll(async () => {
  await api.close();
  await stopS3();
});

/**
 * The api's pool, counting the statements sent on it; `failBatches` makes every statement for
 * more than one callback fail as a lost connection would, without reaching the database.
 */
function countingPool(options: { failBatches?: Error } = {}): { sql: SqlPool; statements: () => number } {
  const pool = sqlPoolOf(api.db);
  let statements = 0;
  const sql = {
    query: (...args: Parameters<SqlPool['query']>) => {
      statements += 1;
      const values = (args[0] as { values?: unknown[][] }).values;
      if (options.failBatches !== undefined && (values?.[0]?.length ?? 0) > 1) return Promise.reject(options.failBatches);
      return (pool.query as (...a: unknown[]) => unknown)(...args);
    },
  } as unknown as SqlPool;
  return { sql, statements: () => statements };
}

/** A job whose attempt holds its prediction (ACTIVE). */
async function job() {
  const predictionId = `pred_${randomUUID()}`;
  const seeded = await createStagingJob(api.db, {
    original: listing.original,
    job: { status: 'PROCESSING' },
    attempts: [{ status: 'ACTIVE', providerPredictionId: predictionId }],
  });
  return { aiJobId: seeded.id, attemptId: seeded.attempts[0]!.id, predictionId };
}

/** A job whose create response was lost: attempt CREATING, no prediction id. */
async function lostJob() {
  const seeded = await createStagingJob(api.db, { original: listing.original, job: { status: 'PROCESSING' }, attempts: [{ status: 'CREATING' }] });
  return { aiJobId: seeded.id, attemptId: seeded.attempts[0]!.id };
}

function callback(attemptId: string, predictionId: string, webhookId = `msg_${randomUUID()}`): VerifiedCallback {
  return { providerAttemptId: attemptId, webhookId, webhookTimestamp: new Date(), predictionId, predictionStatus: 'processing' };
}

/** A callback that takes the statement slot, so every later call queues for one batch. */
async function occupySlot(): Promise<VerifiedCallback> {
  const a = await job();
  return callback(a.attemptId, a.predictionId);
}

/** Resolves once some statement is waiting for a lock that backend `holderPid` holds. */
async function waitForLockWait(holderPid: number): Promise<void> {
  for (;;) {
    const { rows } = await sqlPoolOf(api.db).query<{ waiting: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))) AS waiting`,
      [holderPid],
    );
    if (rows[0]?.waiting === true) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function receiptsOf(attemptId: string): Promise<number> {
  return api.db.aiProviderWebhookReceipt.count({ where: { providerAttemptId: attemptId } });
}

describe('provider callbacks recorded in batches', () => {
  it('gives each callback of one statement its own outcome: matched, redelivered (in the batch or before), foreign, unknown', async () => {
    const { sql, statements } = countingPool();
    const record = createProviderCallbackRecorder(sql, captureLogs().logger);
    const [parked, other] = [await job(), await job()];
    const redelivered = callback(other.attemptId, other.predictionId);
    const foreign = `pred_${randomUUID()}`;
    const earlier = callback(parked.attemptId, parked.predictionId);
    await record(earlier);
    const outcomes = await Promise.all(
      [
        await occupySlot(),
        callback(parked.attemptId, parked.predictionId),
        redelivered,
        { ...redelivered, webhookTimestamp: new Date(Date.now() + 1000) },
        callback(parked.attemptId, foreign),
        callback(randomUUID(), 'pred_unknown'),
        { ...earlier, webhookTimestamp: new Date(Date.now() + 1000) },
      ].map(record),
    );

    expect(statements()).toBe(3);
    expect(outcomes.slice(1)).toEqual([
      { kind: 'matched', aiJobId: parked.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: false },
      { kind: 'matched', aiJobId: other.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: false },
      { kind: 'matched', aiJobId: other.aiJobId, jobOpen: true, duplicate: true, filledPredictionId: false },
      { kind: 'mismatch', aiJobId: parked.aiJobId, duplicate: false, persistedPredictionId: parked.predictionId },
      { kind: 'unknown-attempt' },
      { kind: 'matched', aiJobId: parked.aiJobId, jobOpen: true, duplicate: true, filledPredictionId: false },
    ]);
    expect([await receiptsOf(parked.attemptId), await receiptsOf(other.attemptId)]).toEqual([3, 1]);
  });

  it('fills a lost prediction id from the first new callback of the batch; the others compare against it', async () => {
    const { sql, statements } = countingPool();
    const record = createProviderCallbackRecorder(sql, captureLogs().logger);
    const lost = await lostJob();
    const [first, second] = [`pred_${randomUUID()}`, `pred_${randomUUID()}`];
    const outcomes = await Promise.all(
      [
        await occupySlot(),
        callback(lost.attemptId, first),
        callback(lost.attemptId, second),
        callback(lost.attemptId, first),
      ].map(record),
    );

    expect(statements()).toBe(2);
    expect(outcomes.slice(1)).toEqual([
      { kind: 'matched', aiJobId: lost.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: true },
      { kind: 'mismatch', aiJobId: lost.aiJobId, duplicate: false, persistedPredictionId: first },
      { kind: 'matched', aiJobId: lost.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: false },
    ]);
    const attempt = await api.db.aiProviderAttempt.findUniqueOrThrow({ where: { id: lost.attemptId } });
    expect(attempt.providerPredictionId).toBe(first);
    expect(await receiptsOf(lost.attemptId)).toBe(3);
  });

  it('retries a failed batch one callback at a time, so one bad callback fails nobody else', async () => {
    const { sql, statements } = countingPool();
    const { logger, logs } = captureLogs();
    const record = createProviderCallbackRecorder(sql, logger);
    // Two lost attempts claiming one prediction: filling both in one statement breaks the unique
    // index and fails the batch; one at a time, the first fills it and the second cannot.
    const [x, y] = [await lostJob(), await lostJob()];
    const bystander = await job();
    const shared = `pred_${randomUUID()}`;
    const outcomes = await Promise.all(
      [
        await occupySlot(),
        callback(x.attemptId, shared),
        callback(y.attemptId, shared),
        callback(bystander.attemptId, bystander.predictionId),
      ].map(record),
    );

    expect(outcomes.slice(1)).toEqual([
      { kind: 'matched', aiJobId: x.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: true },
      { kind: 'mismatch', aiJobId: y.aiJobId, duplicate: false, persistedPredictionId: null },
      { kind: 'matched', aiJobId: bystander.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: false },
    ]);
    // One alone, the failed batch of three, then its three callbacks one by one, and y's attempt
    // read again (no prediction id and not filled: it might have lost a race; it did not).
    expect(statements()).toBe(6);
    expect(logs.events('provider_webhook.batch_failed')).toEqual([expect.objectContaining({ callbacks: 3 })]);
    expect([await receiptsOf(x.attemptId), await receiptsOf(y.attemptId), await receiptsOf(bystander.attemptId)]).toEqual([1, 1, 1]);
  });

  it('fails a batch whose connection broke as a whole, without a statement per callback behind it', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const { sql, statements } = countingPool({ failBatches: lost });
    const { logger, logs } = captureLogs();
    const record = createProviderCallbackRecorder(sql, logger);
    const [first, second] = [await job(), await job()];
    const calls = [await occupySlot(), callback(first.attemptId, first.predictionId), callback(second.attemptId, second.predictionId)].map(record);
    const settled = await Promise.allSettled(calls);

    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(settled.slice(1)).toEqual([expect.objectContaining({ reason: lost }), expect.objectContaining({ reason: lost })]);
    expect(statements()).toBe(2);
    expect(logs.events('provider_webhook.batch_failed')).toEqual([]);
    expect([await receiptsOf(first.attemptId), await receiptsOf(second.attemptId)]).toEqual([0, 0]);
  });

  it('reads the attempt again when its fill lost a race, instead of calling the one prediction a mismatch', async () => {
    const record = createProviderCallbackRecorder(sqlPoolOf(api.db), captureLogs().logger);
    const lost = await lostJob();
    const predictionId = `pred_${randomUUID()}`;
    // The worker stores the prediction id in a transaction that commits only after the callback's
    // statement has taken its snapshot and is waiting for the attempt's row.
    const worker = await sqlPoolOf(api.db).connect();
    try {
      const { rows } = await worker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await worker.query('BEGIN');
      await worker.query(`UPDATE "ai_provider_attempts" SET "providerPredictionId" = $1 WHERE "id" = $2`, [predictionId, lost.attemptId]);
      const outcome = record(callback(lost.attemptId, predictionId));
      await waitForLockWait(rows[0]!.pid);
      await worker.query('COMMIT');

      expect(await outcome).toEqual({ kind: 'matched', aiJobId: lost.aiJobId, jobOpen: true, duplicate: false, filledPredictionId: false });
    } finally {
      worker.release();
    }
    expect(await receiptsOf(lost.attemptId)).toBe(1);
  });

  it('answers a burst of signed callbacks for many jobs with 204s, one receipt and one wake-up each', async () => {
    const jobs = await Promise.all(Array.from({ length: 24 }, () => job()));
    await Promise.all(jobs.map((seeded) => enqueueStagingJob(api.stagingQueue, seeded.aiJobId, { delayMs: 10 * 60_000 })));
    const responses = await Promise.all(
      jobs.map((seeded) => sendWebhook(api.url, seeded.attemptId, { body: predictionBody(seeded.predictionId, 'processing') })),
    );

    expect(responses.map((response) => response.status)).toEqual(jobs.map(() => 204));
    expect(await Promise.all(jobs.map((seeded) => receiptsOf(seeded.attemptId)))).toEqual(jobs.map(() => 1));
    expect(await Promise.all(jobs.map((seeded) => api.stagingQueue.getJobState(seeded.aiJobId)))).toEqual(jobs.map(() => 'waiting'));
  });
});
