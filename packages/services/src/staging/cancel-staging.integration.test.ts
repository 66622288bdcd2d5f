import { AppError } from '@staging/domain/errors';
import type { JobStatus } from '@staging/domain/staging-states';
import { createOriginalImage } from '@staging/db/testing/factories';
import { cancelStaging, cancelSubmission } from './cancel-staging';
import { listStagingJobs } from './get-jobs';
import { enqueueStagingJob } from './staging-queue';
import { submitStaging, submitStagingBatch } from './submit-staging';
import { seedListing, seedOtherAgent, useProducerTestContext } from './testing/staging-test-kit';
import type { SeededListing } from './testing/staging-test-kit';

const ctx = useProducerTestContext(new Date('2026-12-01T10:00:00.000Z'));

async function submitted(): Promise<{ listing: SeededListing; aiJobId: string }> {
  const listing = await seedListing(ctx.db);
  const [item] = await submitStaging(ctx.deps, {
    actor: listing.actor,
    assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'MODERN' }],
  });
  return { listing, aiJobId: item!.aiJobId! };
}

/** Moves the job as the worker would, bypassing the use cases under test. */
async function workerSets(aiJobId: string, status: JobStatus): Promise<void> {
  await ctx.db.aiJob.update({
    where: { id: aiJobId },
    data: { status, startedAt: status === 'PENDING' ? null : ctx.clock.now() },
  });
}

describe('cancelStaging', () => {
  it('cancels a PENDING job outright: both timestamps, message removed, no attempts; a repeat changes nothing', async () => {
    const { listing, aiJobId } = await submitted();
    expect(await ctx.tq.queue.getJobState(aiJobId)).toBe('waiting');
    ctx.clock.set(new Date('2026-12-01T10:00:05.000Z'));

    const dto = await cancelStaging(ctx.deps, { actor: listing.actor, aiJobId });
    expect(dto).toMatchObject({
      aiJobId,
      status: 'CANCELED',
      attempts: [],
      timings: {
        cancelRequestedAt: '2026-12-01T10:00:05.000Z',
        canceledAt: '2026-12-01T10:00:05.000Z',
        completedAt: '2026-12-01T10:00:05.000Z',
        elapsedMs: 5000,
      },
    });
    expect(await ctx.tq.queue.getJob(aiJobId)).toBeUndefined();
    expect(await ctx.db.aiProviderAttempt.count({ where: { aiJobId } })).toBe(0);

    ctx.clock.set(new Date('2026-12-01T10:01:00.000Z'));
    const again = await cancelStaging(ctx.deps, { actor: listing.actor, aiJobId });
    expect(again).toEqual(dto);
    expect(ctx.log.events('ai_room_staging.cancel_requested')).toEqual([
      expect.objectContaining({
        jobId: aiJobId,
        fromStatus: 'PENDING',
        toStatus: 'CANCELED',
        actorUserId: listing.actor.id,
      }),
    ]);
  });

  it.each(['PROCESSING', 'RETRYING'] as const)(
    'moves a %s job to CANCEL_REQUESTED and wakes its parked message; a repeat keeps the first request time',
    async (status) => {
      const { listing, aiJobId } = await submitted();
      await workerSets(aiJobId, status);
      // The worker parks a job that waits for the provider as a delayed message.
      await ctx.tq.queue.remove(aiJobId);
      await enqueueStagingJob(ctx.tq.queue, aiJobId, { delayMs: 600_000 });
      ctx.clock.set(new Date('2026-12-01T10:00:07.000Z'));

      const dto = await cancelStaging(ctx.deps, { actor: listing.actor, aiJobId });
      expect(dto).toMatchObject({
        status: 'CANCEL_REQUESTED',
        timings: { cancelRequestedAt: '2026-12-01T10:00:07.000Z', canceledAt: null, completedAt: null },
      });
      expect(await ctx.tq.queue.getJobState(aiJobId)).toBe('waiting');

      ctx.clock.set(new Date('2026-12-01T10:00:30.000Z'));
      const again = await cancelStaging(ctx.deps, { actor: listing.actor, aiJobId });
      expect(again).toMatchObject({
        status: 'CANCEL_REQUESTED',
        timings: { cancelRequestedAt: '2026-12-01T10:00:07.000Z' },
      });
      expect(ctx.log.events('ai_room_staging.cancel_requested')).toEqual([
        expect.objectContaining({ jobId: aiJobId, fromStatus: status, toStatus: 'CANCEL_REQUESTED' }),
      ]);
      expect(await ctx.db.aiProviderAttempt.count({ where: { aiJobId } })).toBe(0);
    },
  );

  it('re-adds the message of a CANCEL_REQUESTED job whose message was lost', async () => {
    const { listing, aiJobId } = await submitted();
    await workerSets(aiJobId, 'RETRYING');
    await ctx.tq.deleteKeys();
    await cancelStaging(ctx.deps, { actor: listing.actor, aiJobId });
    expect(await ctx.tq.queue.getJobState(aiJobId)).toBe('waiting');
  });

  it.each(['SUCCESS', 'FAILED', 'CANCELED'] as const)('returns a %s job unchanged', async (status) => {
    const { listing, aiJobId } = await submitted();
    await ctx.tq.queue.remove(aiJobId);
    await ctx.db.aiJob.update({
      where: { id: aiJobId },
      data: {
        status,
        completedAt: status === 'CANCELED' ? null : ctx.clock.now(),
        errorCode: status === 'FAILED' ? 'PROVIDER_AUTH' : null,
      },
    });
    const before = await ctx.db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } });
    const dto = await cancelStaging(ctx.deps, { actor: listing.actor, aiJobId });
    expect(dto.status).toBe(status);
    expect(await ctx.db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } })).toEqual(before);
    expect(await ctx.tq.queue.getJob(aiJobId)).toBeUndefined();
    expect(ctx.log.events('ai_room_staging.cancel_requested')).toEqual([]);
  });

  it('answers NOT_FOUND to an unrelated agent and for an unknown job, changing nothing', async () => {
    const { aiJobId } = await submitted();
    const stranger = await seedOtherAgent(ctx.db);
    for (const attempt of [
      cancelStaging(ctx.deps, { actor: stranger, aiJobId }),
      cancelStaging(ctx.deps, { actor: stranger, aiJobId: '00000000-0000-4000-8000-000000000000' }),
    ]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'Staging job not found' });
    }
    expect((await ctx.db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } })).status).toBe('PENDING');
    expect(await ctx.tq.queue.getJobState(aiJobId)).toBe('waiting');
  });

  it('races the worker picking the job up without ever leaving it PROCESSING or half-canceled', async () => {
    for (let round = 0; round < 10; round += 1) {
      const { listing, aiJobId } = await submitted();
      // The worker's own conditional move, as the transition table demands of it.
      const pickUp = ctx.db.$executeRaw`
        UPDATE "ai_jobs" SET "status" = 'PROCESSING', "startedAt" = now() WHERE "id" = ${aiJobId} AND "status" = 'PENDING'`;
      const [picked, dto] = await Promise.all([
        pickUp,
        cancelStaging(ctx.deps, { actor: listing.actor, aiJobId }),
      ]);
      const row = await ctx.db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } });
      if (picked === 1) {
        expect(row.status).toBe('CANCEL_REQUESTED');
        expect(row.canceledAt).toBeNull();
      } else {
        expect(row.status).toBe('CANCELED');
        expect(row.canceledAt).not.toBeNull();
      }
      expect(dto.status).toBe(row.status);
      expect(row.cancelRequestedAt).not.toBeNull();
    }
  });
});

describe('cancelSubmission', () => {
  it('cancels what is still open of one batch, each by the single-job rules, and nothing of another batch', async () => {
    const listing = await seedListing(ctx.db);
    const photos = [listing.originalImageId, ...(await Promise.all([1, 2, 3].map(async () => (await createOriginalImage(ctx.db, { propertyId: listing.propertyId })).id)))];
    const batch = await submitStagingBatch(ctx.deps, {
      actor: listing.actor,
      assignments: photos.slice(0, 3).map((originalImageId) => ({ originalImageId, roomType: 'BEDROOM' as const, style: 'MODERN' })),
    });
    const other = await submitStagingBatch(ctx.deps, {
      actor: listing.actor,
      assignments: [{ originalImageId: photos[3]!, roomType: 'BEDROOM', style: 'MODERN' }],
    });
    const [done, running, waiting] = batch.items.map((item) => item.aiJobId!);
    await workerSets(done!, 'SUCCESS');
    await workerSets(running!, 'PROCESSING');

    // Another agent cannot touch the batch, and sees none of it.
    const stranger = await seedOtherAgent(ctx.db);
    expect(await cancelSubmission(ctx.deps, { actor: stranger, submissionId: batch.submissionId })).toEqual([]);
    expect((await listStagingJobs(ctx.deps, { actor: stranger, submissionId: batch.submissionId, limit: 10 })).items).toEqual([]);

    const canceled = await cancelSubmission(ctx.deps, { actor: listing.actor, submissionId: batch.submissionId });
    expect(Object.fromEntries(canceled.map((job) => [job.aiJobId, job.status]))).toEqual({ [running!]: 'CANCEL_REQUESTED', [waiting!]: 'CANCELED' });
    const statuses = async (ids: string[]) =>
      Object.fromEntries((await ctx.db.aiJob.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } })).map((job) => [job.id, job.status]));
    expect(await statuses([done!, other.items[0]!.aiJobId!])).toEqual({ [done!]: 'SUCCESS', [other.items[0]!.aiJobId!]: 'PENDING' });

    // The batch is listed together, its jobs carrying the id.
    const listed = await listStagingJobs(ctx.deps, { actor: listing.actor, submissionId: batch.submissionId, limit: 10 });
    expect(listed.items.map((job) => job.aiJobId).sort()).toEqual([done, running, waiting].sort());
    expect(new Set(listed.items.map((job) => job.submissionId))).toEqual(new Set([batch.submissionId]));
  });
});
