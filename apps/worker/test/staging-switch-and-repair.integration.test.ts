import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createProviderAttempt } from '@staging/db/testing/factories';
import { startTestStack, waitUntil } from './support/test-stack';
import type { TestStack } from './support/test-stack';
import { deleteKeysMatching } from '@staging/platform/redis-keys';

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

/** A job whose (slow) prediction is running at the provider, left behind by a worker that stopped. */
async function jobWithPredictionRunning(predictionMs: number) {
  await stack.faults([{ name: 'slow', delayMs: predictionMs }]);
  const worker = await stack.startWorker();
  const [job] = await stack.seedJobs(1);
  await waitUntil(() => stack.db.aiProviderAttempt.findFirst({ where: { aiJobId: job!.jobId, status: 'ACTIVE' } }), {
    what: 'a running prediction',
  });
  await worker.stop();
  return job!;
}

describe('kill switch AI_ROOM_STAGING_ENABLED (docs/system.md 1.7)', () => {
  it('off: new jobs wait PENDING/PROVIDER_DISABLED unpaid, a reserved attempt stays unpaid, a running prediction is still polled; on: all finish', async () => {
    // A job whose prediction is already running when the switch goes off.
    const running = await jobWithPredictionRunning(2_500);

    const [fresh, reserved] = await stack.seedJobs(2);
    // A job that died right after reserving attempt 1 (ledger state of a crash at that boundary).
    await stack.db.aiJob.update({
      where: { id: reserved!.jobId },
      data: { status: 'PROCESSING', startedAt: new Date() },
    });
    await createProviderAttempt(stack.db, { aiJobId: reserved!.jobId, status: 'RESERVED' });

    const disabled = await stack.startWorker({ env: { AI_ROOM_STAGING_ENABLED: 'false' } });
    await stack.waitForStatus(running.jobId, ['SUCCESS']);
    await waitUntil(
      async () => {
        const jobs = await stack.db.aiJob.findMany({
          where: { id: { in: [fresh!.jobId, reserved!.jobId] } },
        });
        return jobs.every((j) => j.phase === 'PROVIDER_DISABLED');
      },
      { what: 'both jobs parked as PROVIDER_DISABLED' },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const parkedFresh = await stack.db.aiJob.findUniqueOrThrow({
      where: { id: fresh!.jobId },
      include: { attempts: true },
    });
    expect(parkedFresh).toMatchObject({ status: 'PENDING', phase: 'PROVIDER_DISABLED', attempts: [] });
    const parkedReserved = await stack.db.aiJob.findUniqueOrThrow({
      where: { id: reserved!.jobId },
      include: { attempts: true },
    });
    expect(parkedReserved).toMatchObject({ status: 'PROCESSING', phase: 'PROVIDER_DISABLED' });
    expect(parkedReserved.attempts).toEqual([
      expect.objectContaining({ attemptNumber: 1, status: 'RESERVED', creatingAt: null }),
    ]);
    expect(await stack.purchasesFor(fresh!.jobId)).toHaveLength(0);
    expect(await stack.purchasesFor(reserved!.jobId)).toHaveLength(0);
    expect(disabled.log.events('worker_started').filter((l) => l['jobId'] === fresh!.jobId)).toHaveLength(0);
    await disabled.stop();

    await stack.startWorker();
    for (const job of [fresh!, reserved!]) await stack.waitForStatus(job.jobId, ['SUCCESS']);
    for (const job of [fresh!, reserved!]) {
      const done = await stack.db.aiJob.findUniqueOrThrow({
        where: { id: job.jobId },
        include: { attempts: true },
      });
      expect(done.phase).toBeNull();
      expect(done.attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
      expect(await stack.purchasesFor(job.jobId)).toHaveLength(1);
    }
  }, 300_000);
});

describe('dispatcher: ai_jobs is the outbox, the queue is rebuilt from it', () => {
  it('queue keys deleted while jobs are PENDING and PROCESSING: the dispatcher re-adds them and all finish', async () => {
    // The api is down (callbacks answered 503), so the dispatcher is the only way back into the
    // queue: a callback for the running prediction would otherwise re-add its job first whenever
    // the worker boots later than the prediction ends (a busy machine).
    stack.receiver.setAvailable(false);
    try {
      const processing = await jobWithPredictionRunning(2_000);
      const pending = await stack.seedJobs(2);

      // Redis loses the queue (only this test file's keys; never FLUSHALL).
      await deleteKeysMatching(stack.redis, `bull:${stack.queueName}:*`);
      for (const job of [processing, ...pending])
        expect(await stack.queue.getJobState(job.jobId)).toBe('unknown');

      const worker = await stack.startWorker();
      for (const job of [processing, ...pending]) await stack.waitForStatus(job.jobId, ['SUCCESS']);
      for (const job of [processing, ...pending]) expect(await stack.purchasesFor(job.jobId)).toHaveLength(1);
      expect(
        worker.log.lines().filter((l) => l['event'] === 'ai_room_staging.queue_repaired').length,
      ).toBeGreaterThanOrEqual(3);
    } finally {
      stack.receiver.setAvailable(true);
    }
  }, 300_000);
});

describe('storage deletion outbox loop', () => {
  it('rows for rejected and deleted objects are DELETED within one pass', async () => {
    const keys = ['staged/outbox-test/rejected.jpg', 'properties/outbox-test/originals/deleted.jpg'];
    for (const key of keys) await stack.storage.putObject(key, Buffer.from('x'), 'image/jpeg');
    await stack.db.storageDeletionOutbox.createMany({
      data: [
        { objectKey: keys[0]!, reason: 'STAGED_IMAGE_DELETED' },
        { objectKey: keys[1]!, reason: 'ORIGINAL_IMAGE_DELETED' },
      ],
    });
    const worker = await stack.startWorker({ env: { DELETION_OUTBOX_INTERVAL_MS: '600000' } });
    await worker.app.runDeletionOutbox();
    const rows = await stack.db.storageDeletionOutbox.findMany({ where: { objectKey: { in: keys } } });
    expect(rows.map((r) => r.status)).toEqual(['DELETED', 'DELETED']);
    expect(rows.every((r) => r.processedAt !== null)).toBe(true);
    for (const key of keys) expect(await stack.storage.headObject(key)).toBeNull();
  });

  it('an object store that fails leads to retries, then FAILED with lastError and an alert', async () => {
    const key = 'staged/outbox-test/unlucky.jpg';
    await stack.db.storageDeletionOutbox.create({ data: { objectKey: key, reason: 'STAGED_IMAGE_DELETED' } });
    const failing = {
      ...stack.storage,
      deleteObject: async () => Promise.reject(new Error('simulated object store outage')),
    };
    const worker = await stack.startWorker({
      env: { DELETION_OUTBOX_INTERVAL_MS: '150' },
      overrides: { storage: failing },
    });
    const row = await waitUntil(
      async () => {
        const current = await stack.db.storageDeletionOutbox.findFirstOrThrow({ where: { objectKey: key } });
        return current.status === 'FAILED' ? current : undefined;
      },
      { what: 'the outbox row to end FAILED' },
    );
    expect(row.attempts).toBe(3);
    expect(row.lastError).toContain('simulated object store outage');
    expect(
      worker.log.lines().some((l) => l['event'] === 'alert' || l['event'] === 'storage_deletion.failed'),
    ).toBe(true);
  }, 300_000);
});
