import { afterOriginalDeleted, stagingJobsAffectedByOriginalDeletion } from './original-deletion';
import type { StagingProducerDeps } from './staging-deps';
import { enqueueStagingJob } from './staging-queue';
import { submitStaging } from './submit-staging';
import { memoryLogger, producerDeps, seedListing, useStagingTestContext } from './testing/staging-test-kit';

const ctx = useStagingTestContext();
let deps: StagingProducerDeps;

beforeEach(async () => {
  deps = producerDeps({ db: ctx.db, stagingQueue: ctx.tq.queue, logger: memoryLogger().logger });
});

async function originalWithJobs() {
  const listing = await seedListing(ctx.db);
  const items = await submitStaging(deps, {
    actor: listing.actor,
    assignments: ['MODERN', 'COASTAL', 'FARMHOUSE'].map((style) => ({
      originalImageId: listing.originalImageId,
      roomType: 'BEDROOM' as const,
      style,
    })),
  });
  const [queued, active, retrying] = items.map((i) => i.aiJobId!) as [string, string, string];
  await ctx.db.aiJob.update({ where: { id: active }, data: { status: 'PROCESSING' } });
  await ctx.db.aiJob.update({ where: { id: retrying }, data: { status: 'RETRYING' } });
  // The worker parks jobs waiting on the provider as delayed messages.
  for (const id of [active, retrying]) {
    await ctx.tq.queue.remove(id);
    await enqueueStagingJob(ctx.tq.queue, id, { delayMs: 600_000 });
  }
  return { listing, queued, active, retrying };
}

describe('original deletion follow-up', () => {
  it('reads the affected jobs before the delete, then removes canceled messages and wakes the rest', async () => {
    const { listing, queued, active, retrying } = await originalWithJobs();
    const affected = await ctx.db.$transaction(async (tx) => {
      const read = await stagingJobsAffectedByOriginalDeletion(tx, [listing.originalImageId]);
      await tx.propertyImage.delete({ where: { id: listing.originalImageId } });
      return read;
    });
    expect(affected).toEqual({
      canceledJobIds: [queued],
      cancelRequestedJobIds: expect.arrayContaining([active, retrying]),
    });

    const statuses = await ctx.db.aiJob.findMany({
      where: { id: { in: [queued, active, retrying] } },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(statuses.map((j) => [j.id, j.status]))).toEqual({
      [queued]: 'CANCELED',
      [active]: 'CANCEL_REQUESTED',
      [retrying]: 'CANCEL_REQUESTED',
    });

    expect(await afterOriginalDeleted(deps, affected)).toEqual({ removed: 1, woken: 2, failed: 0 });
    expect(await ctx.tq.queue.getJob(queued)).toBeUndefined();
    expect(await ctx.tq.queue.getJobState(active)).toBe('waiting');
    expect(await ctx.tq.queue.getJobState(retrying)).toBe('waiting');
  });

  it('routes by the status after the delete: a job picked up after the read is woken, not removed', async () => {
    const { listing, queued } = await originalWithJobs();
    const affected = await stagingJobsAffectedByOriginalDeletion(ctx.db, [listing.originalImageId]);
    expect(affected.canceledJobIds).toEqual([queued]);
    // The worker picks the job up between the read and the delete; its message is now parked.
    await ctx.db.aiJob.update({ where: { id: queued }, data: { status: 'PROCESSING' } });
    await ctx.tq.queue.remove(queued);
    await enqueueStagingJob(ctx.tq.queue, queued, { delayMs: 600_000 });
    await ctx.db.propertyImage.delete({ where: { id: listing.originalImageId } });

    const counts = await afterOriginalDeleted(deps, affected);
    expect(counts).toEqual({ removed: 0, woken: 3, failed: 0 });
    expect((await ctx.db.aiJob.findUniqueOrThrow({ where: { id: queued } })).status).toBe('CANCEL_REQUESTED');
    expect(await ctx.tq.queue.getJobState(queued)).toBe('waiting');
  });

  it('does nothing for an original without jobs', async () => {
    const listing = await seedListing(ctx.db);
    const affected = await stagingJobsAffectedByOriginalDeletion(ctx.db, [listing.originalImageId]);
    expect(affected).toEqual({ canceledJobIds: [], cancelRequestedJobIds: [] });
    expect(await afterOriginalDeleted(deps, affected)).toEqual({ removed: 0, woken: 0, failed: 0 });
  });
});
