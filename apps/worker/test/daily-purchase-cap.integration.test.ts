/**
 * AI_DAILY_PURCHASE_CAP against real Postgres, Redis and the provider simulator. Purchases of
 * earlier tests in this file count in the same UTC day, so each test sets its cap relative to
 * the day's count when it starts (a run across UTC midnight would see a fresh day mid-test).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { DAILY_PURCHASE_CAP_REACHED, purchaseDayOf } from '@staging/domain/daily-purchase-cap';
import { countDailyPurchases } from '@staging/services/staging/daily-purchases';
import { wakeStagingJob } from '@staging/services/staging/staging-queue';
import { DAILY_CAP_LOCK_KEY } from '../src/staging/daily-purchase-cap';
import { startTestStack, waitUntil } from './support/test-stack';
import type { RunningWorker, TestStack } from './support/test-stack';


let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterEach(async () => {
  await stack.stopWorkers();
  stack.sim.reset();
});

afterAll(async () => {
  await stack.close();
});

async function purchasesToday(): Promise<number> {
  return (await countDailyPurchases(stack.db, purchaseDayOf(new Date()))).others;
}

function capAlerts(workers: RunningWorker[]): Record<string, unknown>[] {
  return workers.flatMap((worker) =>
    worker.log.events('alert').filter((line) => line['errorCode'] === 'DAILY_PURCHASE_CAP_NEAR'),
  );
}

/**
 * Holds the cap's lock while `start` runs and until two transactions wait for it: both passed
 * the unlocked look, so the locked count alone decides which one buys.
 */
async function whileTwoWaitForTheCapLock(start: () => Promise<void>): Promise<void> {
  await stack.db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${DAILY_CAP_LOCK_KEY}::bigint)`;
      await start();
      await waitUntil(
        async () => {
          const [row] = await stack.db.$queryRaw<{ waiting: number }[]>`
            SELECT COUNT(*)::int AS "waiting" FROM pg_locks
            WHERE locktype = 'advisory' AND objid = ${DAILY_CAP_LOCK_KEY} AND NOT granted`;
          return row!.waiting === 2;
        },
        { what: 'two transactions waiting for the daily cap lock' },
      );
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}

async function oneStagedOneParked(jobIds: string[]) {
  return waitUntil(
    async () => {
      const rows = await stack.db.aiJob.findMany({ where: { id: { in: jobIds } } });
      const done = rows.filter((row) => row.status === 'SUCCESS');
      const parked = rows.filter((row) => row.phase === DAILY_PURCHASE_CAP_REACHED);
      return done.length === 1 && parked.length === 1 ? { done: done[0]!, parked: parked[0]! } : null;
    },
    { what: 'one job staged and one parked' },
  );
}

describe('daily purchase cap', () => {
  it('two workers racing for the last purchase under the cap: exactly one buys, the other job parks unpaid', async () => {
    const cap = (await purchasesToday()) + 1;
    const env = { AI_DAILY_PURCHASE_CAP: String(cap) };
    const jobs = await stack.seedJobs(2);
    const predictionsBefore = (await stack.predictions()).length;

    const workers: RunningWorker[] = [];
    await whileTwoWaitForTheCapLock(async () => {
      workers.push(await stack.startWorker({ env }), await stack.startWorker({ env }));
    });

    const settled = await oneStagedOneParked(jobs.map((job) => job.jobId));
    expect(settled.parked).toMatchObject({ status: 'PROCESSING', errorCode: null });
    expect(await stack.db.aiProviderAttempt.findMany({ where: { aiJobId: settled.parked.id } })).toEqual([
      expect.objectContaining({ status: 'RESERVED', creatingAt: null }),
    ]);
    expect(await stack.purchasesFor(settled.parked.id)).toHaveLength(0);
    expect(await stack.purchasesFor(settled.done.id)).toHaveLength(1);
    expect((await stack.predictions()).length - predictionsBefore).toBe(1);
    expect(await purchasesToday()).toBe(cap);
    expect(
      workers
        .flatMap((worker) => worker.log.lines())
        .filter((line) => line['msg'] === 'daily purchase cap reached: job parked without purchase'),
    ).toEqual([
      expect.objectContaining({
        jobId: settled.parked.id,
        resumesAt: purchaseDayOf(new Date()).end.toISOString(),
      }),
    ]);
  });

  it('alerts once when the day reaches 80 % of the cap, buys up to the cap and parks the next job', async () => {
    const already = await purchasesToday();
    const cap = already + 5;
    const threshold = Math.ceil(cap * 0.8);
    const worker = await stack.startWorker({
      env: { AI_DAILY_PURCHASE_CAP: String(cap), AI_STAGING_CONCURRENCY: '1' },
    });
    const jobs = await stack.seedJobs(6);
    const outcomes = await Promise.all(
      jobs.map((job) =>
        waitUntil(
          async () => {
            const row = await stack.db.aiJob.findUniqueOrThrow({ where: { id: job.jobId } });
            return row.status === 'SUCCESS' || row.phase === DAILY_PURCHASE_CAP_REACHED ? row : null;
          },
          { what: `job ${job.jobId} staged or parked` },
        ),
      ),
    );
    expect(outcomes.filter((row) => row.status === 'SUCCESS')).toHaveLength(5);
    const parked = outcomes.filter((row) => row.phase === DAILY_PURCHASE_CAP_REACHED);
    expect(parked).toHaveLength(1);
    expect(await stack.purchasesFor(parked[0]!.id)).toHaveLength(0);
    expect(await purchasesToday()).toBe(cap);
    expect(capAlerts([worker])).toEqual([expect.objectContaining({ purchases: threshold, cap, threshold })]);
  });

  it('parked jobs lose nothing: with room again one buys and finishes; the one that loses the race parks again, visibly', async () => {
    // One purchase of its own, so a cap equal to today's count is both valid (≥ 1) and full.
    const uncapped = await stack.startWorker();
    const [bought] = await stack.seedJobs(1);
    await stack.waitForStatus(bought!.jobId, ['SUCCESS']);
    await uncapped.stop();
    const cap = await purchasesToday();
    const capped = await stack.startWorker({ env: { AI_DAILY_PURCHASE_CAP: String(cap) } });
    const jobIds = (await stack.seedJobs(2)).map((job) => job.jobId);
    await waitUntil(
      async () =>
        (await stack.db.aiJob.findMany({ where: { id: { in: jobIds }, phase: DAILY_PURCHASE_CAP_REACHED } }))
          .length === 2,
      { what: 'both jobs parked at the cap' },
    );
    await capped.stop();

    // Room for one more: both parked jobs look again (a raised cap, or the next day) at once.
    await whileTwoWaitForTheCapLock(async () => {
      await stack.startWorker({ env: { AI_DAILY_PURCHASE_CAP: String(cap + 1) } });
      // They would look again within minutes; the wake-up a cancel also sends makes it now.
      for (const jobId of jobIds) await wakeStagingJob(stack.queue, jobId);
    });
    const settled = await oneStagedOneParked(jobIds);
    expect(settled.done).toMatchObject({ phase: null, errorCode: null });
    expect(await stack.purchasesFor(settled.done.id)).toHaveLength(1);
    expect(await stack.purchasesFor(settled.parked.id)).toHaveLength(0);
  });
});
