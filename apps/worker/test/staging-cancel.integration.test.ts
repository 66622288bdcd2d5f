import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cancelStaging } from '@staging/services/staging/cancel-staging';
import {
  afterOriginalDeleted,
  stagingJobsAffectedByOriginalDeletion,
} from '@staging/services/staging/original-deletion';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import type { StepBoundary } from '../src/staging/staging-deps';
import { startTestStack, waitUntil } from './support/test-stack';
import type { TestStack } from './support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack.close();
});

function cancel(jobId: string, userId: string) {
  return cancelStaging(
    {
      db: stack.db,
      stagingQueue: stack.queue,
      logger: memoryLogger().logger,
      clock: { now: () => new Date() },
    },
    { actor: { id: userId, role: 'AGENT' }, aiJobId: jobId },
  );
}

/** A boundary hook that holds one job at one step until released. */
/** Waits until the job's attempt is ACTIVE with its prediction ID, and returns that ID. */
function activePrediction(jobId: string) {
  return waitUntil(
    async () => (await stack.db.aiProviderAttempt.findFirst({ where: { aiJobId: jobId, status: 'ACTIVE' } }))?.providerPredictionId,
    { what: 'an active prediction' },
  );
}

function gate(at: StepBoundary) {
  let jobId = '';
  let reached = false;
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return {
    watch: (id: string) => (jobId = id),
    reached: () => reached,
    release: () => release(),
    hook: async (name: StepBoundary, id: string) => {
      if (name !== at || id !== jobId) return;
      reached = true;
      await opened;
    },
  };
}

/** A fresh job that a new worker holds at `at` until `release()`. */
async function jobHeldAt(at: StepBoundary) {
  const hold = gate(at);
  const worker = await stack.startWorker({ overrides: { boundary: hold.hook } });
  const seeded = await stack.seedJob();
  hold.watch(seeded.jobId);
  await waitUntil(async () => hold.reached(), { what: `the ${at} boundary` });
  return { ...seeded, worker, release: hold.release };
}

describe('cancellation (docs/system.md 3.1)', () => {
  it('PENDING: canceled outright, no attempt, no purchase, and a worker later buys nothing', async () => {
    const { jobId, userId } = await stack.seedJob();
    const dto = await cancel(jobId, userId);
    expect(dto.status).toBe('CANCELED');
    const worker = await stack.startWorker();
    await worker.app.runDispatcher();
    await new Promise((resolve) => setTimeout(resolve, 800));
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job).toMatchObject({ status: 'CANCELED', attempts: [] });
    expect(job.cancelRequestedAt).not.toBeNull();
    expect(job.canceledAt).not.toBeNull();
    expect(await stack.purchasesFor(jobId)).toHaveLength(0);
    await worker.stop();
  });

  it('PROCESSING with a running prediction: canceled at the provider, attempt CANCELED, no staged row', async () => {
    await stack.faults([{ name: 'slow', delayMs: 8_000 }]);
    const worker = await stack.startWorker();
    const { jobId, userId } = await stack.seedJob();
    const predictionId = await activePrediction(jobId);
    expect((await cancel(jobId, userId)).status).toBe('CANCEL_REQUESTED');
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    expect(job.canceledAt).not.toBeNull();
    expect(job.attempts).toEqual([
      expect.objectContaining({ status: 'CANCELED', providerPredictionId: predictionId }),
    ]);
    const [bought] = await stack.purchasesFor(jobId);
    expect(bought?.status).toBe('canceled');
    expect(await stack.db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(0);
    expect(worker.log.events('canceled').filter((l) => l['jobId'] === jobId)).toHaveLength(1);
    expect((await cancel(jobId, userId)).status).toBe('CANCELED');
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    await worker.stop();
  });

  it('a provider cancel that loses the race to success: the job is still CANCELED, the output is not kept', async () => {
    await stack.faults([{ name: 'cancel_loses_race', delayMs: 8_000 }]);
    const worker = await stack.startWorker();
    const { jobId, userId } = await stack.seedJob();
    await activePrediction(jobId);
    expect((await cancel(jobId, userId)).status).toBe('CANCEL_REQUESTED');
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    // The cancel was answered while the prediction still ran; it then succeeds (and is billed).
    await waitUntil(async () => (await stack.purchasesFor(jobId))[0]?.status === 'succeeded', {
      what: 'the prediction to succeed',
    });
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    expect(job.attempts).toEqual([expect.objectContaining({ status: 'CANCELED', outputObjectKey: null })]);
    expect(await stack.db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(0);
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    await worker.stop();
  });

  it('attempt RESERVED, nothing bought yet: canceled without calling the provider', async () => {
    const { worker, release, jobId, userId } = await jobHeldAt('after-reserve');
    expect((await cancel(jobId, userId)).status).toBe('CANCEL_REQUESTED');
    release();
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    expect(job.attempts.every((a) => a.providerPredictionId === null)).toBe(true);
    expect(await stack.purchasesFor(jobId)).toHaveLength(0);
    await worker.stop();
  });

  it('attempt CREATING (bought, ID not yet persisted): the prediction is persisted, then canceled at the provider', async () => {
    await stack.faults([{ name: 'slow', delayMs: 8_000 }]);
    const { worker, release, jobId, userId } = await jobHeldAt('after-create');
    const creating = await stack.db.aiProviderAttempt.findFirstOrThrow({ where: { aiJobId: jobId } });
    expect(creating).toMatchObject({ status: 'CREATING', providerPredictionId: null });
    expect((await cancel(jobId, userId)).status).toBe('CANCEL_REQUESTED');
    release();
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    const [bought, ...more] = await stack.purchasesFor(jobId);
    expect(more).toHaveLength(0);
    expect(bought?.status).toBe('canceled');
    expect(job.attempts).toEqual([
      expect.objectContaining({ status: 'CANCELED', providerPredictionId: bought?.id }),
    ]);
    expect(await stack.db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(0);
    await worker.stop();
  });

  it('RETRYING: canceled before attempt 2 is bought', async () => {
    await stack.faults(['fail']);
    const worker = await stack.startWorker({ overrides: { timings: { retryDelayMs: 5_000 } } });
    const { jobId, userId } = await stack.seedJob();
    await stack.waitForStatus(jobId, ['RETRYING']);
    expect((await cancel(jobId, userId)).status).toBe('CANCEL_REQUESTED');
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    expect(job.attempts).toEqual([expect.objectContaining({ attemptNumber: 1, status: 'FAILED' })]);
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    await worker.stop();
  });

  it('provider finished first and the output reached storage: output_discarded, outbox row, object DELETED', async () => {
    const { worker, release, jobId, userId, propertyId } = await jobHeldAt('after-upload');
    const objectKey = `staged/${propertyId}/${jobId}/1.jpg`;
    expect(await stack.storage.headObject(objectKey)).not.toBeNull();
    expect((await cancel(jobId, userId)).status).toBe('CANCEL_REQUESTED');
    release();
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({
      where: { id: jobId },
      include: { attempts: true, staging: true },
    });
    expect(job.status).toBe('CANCELED');
    expect(job.staging?.resultImageId).toBeNull();
    expect(job.attempts).toEqual([
      expect.objectContaining({ status: 'DISCARDED', outputObjectKey: objectKey }),
    ]);
    expect(await stack.db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(0);
    const outbox = await stack.db.storageDeletionOutbox.findMany({ where: { objectKey } });
    expect(outbox).toEqual([expect.objectContaining({ reason: 'STAGED_IMAGE_DELETED' })]);
    const events = worker.log
      .lines()
      .filter((l) => l['jobId'] === jobId)
      .map((l) => l['event']);
    expect(events).toContain('output_discarded');
    expect(events.indexOf('output_discarded')).toBeLessThan(events.indexOf('canceled'));
    expect(events).not.toContain('completed');
    // One pass of the deletion loop removes the object.
    await worker.app.runDeletionOutbox();
    const row = await stack.db.storageDeletionOutbox.findFirstOrThrow({ where: { objectKey } });
    expect(row.status).toBe('DELETED');
    expect(row.processedAt).not.toBeNull();
    expect(await stack.storage.headObject(objectKey)).toBeNull();
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    await worker.stop();
  });

  it('provider finished first but nothing was stored yet: attempt DISCARDED, nothing uploaded', async () => {
    const { worker, release, jobId, userId, propertyId } = await jobHeldAt('after-download');
    await cancel(jobId, userId);
    release();
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    expect(job.attempts).toEqual([expect.objectContaining({ status: 'DISCARDED', outputObjectKey: null })]);
    expect(await stack.storage.headObject(`staged/${propertyId}/${jobId}/1.jpg`)).toBeNull();
    expect(await stack.db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(0);
    await worker.stop();
  });

  it('original deleted while the prediction runs: CANCEL_REQUESTED by the trigger, then CANCELED after provider handling', async () => {
    await stack.faults([{ name: 'slow', delayMs: 8_000 }]);
    const worker = await stack.startWorker();
    const { jobId, originalImageId } = await stack.seedJob();
    await waitUntil(
      async () => stack.db.aiProviderAttempt.findFirst({ where: { aiJobId: jobId, status: 'ACTIVE' } }),
      { what: 'an active prediction' },
    );
    const affected = await stack.db.$transaction(async (tx) => {
      const jobs = await stagingJobsAffectedByOriginalDeletion(tx, [originalImageId]);
      await tx.propertyImage.delete({ where: { id: originalImageId } });
      return jobs;
    });
    expect(affected.cancelRequestedJobIds).toEqual([jobId]);
    expect((await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe(
      'CANCEL_REQUESTED',
    );
    await afterOriginalDeleted(
      { db: stack.db, stagingQueue: stack.queue, logger: memoryLogger().logger },
      affected,
    );
    await stack.waitForStatus(jobId, ['CANCELED', 'SUCCESS', 'FAILED']);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect(job.status).toBe('CANCELED');
    expect(job.attempts).toEqual([expect.objectContaining({ status: 'CANCELED' })]);
    expect((await stack.purchasesFor(jobId))[0]?.status).toBe('canceled');
    await worker.stop();
  });
});
