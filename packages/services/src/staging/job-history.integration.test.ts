import { createProviderAttempt, createStagedImage } from '@staging/db/testing/factories';
import { approveStagedVariant } from '../review/approve-variant';
import { rejectStagedVariant } from '../review/reject-variant';
import { createSearchQueue } from '../search/search-queue';
import type { SearchQueue } from '../search/search-queue';
import { listJobHistory } from './job-history';
import { submitStaging } from './submit-staging';
import { seedListing, seedOtherAgent, uniqueQueueSuffix, useProducerTestContext } from './testing/staging-test-kit';
import type { SeededListing } from './testing/staging-test-kit';

const ctx = useProducerTestContext(new Date('2026-12-03T09:00:00.000Z'));
let searchQueue: SearchQueue;
beforeEach(() => {
  searchQueue = createSearchQueue(ctx.redis, uniqueQueueSuffix());
});
afterEach(async () => {
  await searchQueue.obliterate({ force: true });
  await searchQueue.close();
});

const reviewDeps = () => ({ db: ctx.db, searchQueue, logger: ctx.log.logger, clock: ctx.clock });

async function submit(listing: SeededListing, style: string): Promise<string> {
  const [item] = await submitStaging(ctx.deps, {
    actor: listing.actor,
    assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style }],
  });
  return item!.aiJobId!;
}

/** Finishes `aiJobId` as the worker would: a bought attempt and a PENDING_REVIEW result. */
async function succeed(listing: SeededListing, aiJobId: string, style: 'MODERN' | 'COASTAL'): Promise<string> {
  await createProviderAttempt(ctx.db, { aiJobId, status: 'SUCCEEDED', providerPredictionId: `pred-${aiJobId}`, costMicrousd: 42_000 });
  const result = await createStagedImage(ctx.db, {
    original: { id: listing.originalImageId, propertyId: listing.propertyId },
    canonicalStyle: style,
    aiJobId,
  });
  await ctx.db.aiRoomStagingJob.update({ where: { aiJobId }, data: { resultImageId: result.id } });
  await ctx.db.aiJob.update({ where: { id: aiJobId }, data: { status: 'SUCCESS', completedAt: ctx.clock.now() } });
  return result.id;
}

describe('listJobHistory', () => {
  it('follows the review of the result: pending review, approved, then taken down with its reason', async () => {
    const listing = await seedListing(ctx.db);
    const aiJobId = await submit(listing, 'MODERN');
    const history = () => listJobHistory(ctx.deps, { actor: listing.actor, propertyId: listing.propertyId, limit: 10 });

    expect((await history()).items[0]).toMatchObject({ aiJobId, outcome: 'PENDING', result: null, reviewedAt: null });
    const resultId = await succeed(listing, aiJobId, 'MODERN');
    const pending = (await history()).items[0]!;
    expect(pending).toMatchObject({
      outcome: 'PENDING_REVIEW',
      original: { id: listing.originalImageId, url: `/api/property-images/${listing.originalImageId}/content` },
      result: { id: resultId, url: `/api/property-images/${resultId}/content` },
      costEstimateMicrousd: 42_000,
      attempts: [expect.objectContaining({ purchase: 'BOUGHT' })],
    });
    expect(pending.propertyTitle.length).toBeGreaterThan(0);

    ctx.clock.set(new Date('2026-12-03T09:05:00.000Z'));
    await approveStagedVariant(reviewDeps(), { actor: listing.actor, imageId: resultId });
    expect((await history()).items[0]).toMatchObject({ outcome: 'APPROVED', reviewedAt: '2026-12-03T09:05:00.000Z' });

    ctx.clock.set(new Date('2026-12-03T10:00:00.000Z'));
    await rejectStagedVariant(reviewDeps(), { actor: listing.actor, imageId: resultId, reason: 'Sofa covers the fireplace' });
    expect((await history()).items[0]).toMatchObject({
      outcome: 'TAKEN_DOWN',
      result: null,
      reviewedAt: '2026-12-03T10:00:00.000Z',
      rejectionReason: 'Sofa covers the fireplace',
    });
  });

  it('names the photo by its file, counts the attempts, and reads a rejection never published as rejected', async () => {
    const listing = await seedListing(ctx.db);
    await ctx.db.propertyImage.update({ where: { id: listing.originalImageId }, data: { fileName: 'kitchen-north.jpg' } });
    const aiJobId = await submit(listing, 'COASTAL');
    const resultId = await succeed(listing, aiJobId, 'COASTAL');
    await rejectStagedVariant(reviewDeps(), { actor: listing.actor, imageId: resultId });

    const [row] = (await listJobHistory(ctx.deps, { actor: listing.actor, propertyId: listing.propertyId, limit: 10 })).items;
    expect(row).toMatchObject({
      outcome: 'REJECTED',
      original: { id: listing.originalImageId, fileName: 'kitchen-north.jpg' },
      attempts: [expect.objectContaining({ attemptNumber: 1 })],
      rejectionReason: null,
    });
  });

  it('pages across every property of the agent and hides other agents’ jobs', async () => {
    const first = await seedListing(ctx.db);
    const firstJob = await submit(first, 'MODERN');
    ctx.clock.set(new Date('2026-12-03T09:01:00.000Z'));
    const second = await seedListing(ctx.db);
    // The second listing's owner is made an assignee of the first: one agent, two properties.
    await ctx.db.propertyAgent.create({ data: { propertyId: first.propertyId, userId: second.actor.id } });
    const secondJob = await submit(second, 'COASTAL');

    const page1 = await listJobHistory(ctx.deps, { actor: second.actor, limit: 1 });
    expect(page1.items.map((j) => j.aiJobId)).toEqual([secondJob]);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await listJobHistory(ctx.deps, { actor: second.actor, limit: 1, cursor: page1.nextCursor! });
    expect(page2.items.map((j) => [j.aiJobId, j.propertyId])).toEqual([[firstJob, first.propertyId]]);
    expect(page2.nextCursor).toBeNull();

    expect((await listJobHistory(ctx.deps, { actor: await seedOtherAgent(ctx.db), limit: 10 })).items).toEqual([]);
  });
});
