import { createOriginalImage } from '@staging/db/testing/factories';
import { WAITING_FOR_START_SLOT } from '@staging/domain/start-line';
import { summarizeStartLine } from './start-line-summary';
import { submitStaging } from './submit-staging';
import { seedListing, testPaidStartLimiter, useProducerTestContext } from './testing/staging-test-kit';
import type { Actor } from '../access/property-access';

const ctx = useProducerTestContext(new Date('2026-12-05T08:00:00.000Z'));

async function submitWaiting(actor: Actor, propertyId: string): Promise<string> {
  const original = await createOriginalImage(ctx.db, { propertyId });
  const [item] = await submitStaging(ctx.deps, { actor, assignments: [{ originalImageId: original.id, roomType: 'BEDROOM', style: 'MODERN' }] });
  await ctx.db.aiJob.update({ where: { id: item!.aiJobId! }, data: { status: 'PROCESSING', phase: WAITING_FOR_START_SLOT } });
  return item!.aiJobId!;
}

describe('summarizeStartLine', () => {
  it("counts the caller's own waiting photos and says where the first one stands", async () => {
    const listing = await seedListing(ctx.db);
    const other = await seedListing(ctx.db);
    const [first, second] = [await submitWaiting(listing.actor, listing.propertyId), await submitWaiting(listing.actor, listing.propertyId)];
    // Neither a job canceled while it waited nor another agent's waiting job counts.
    const canceled = await submitWaiting(listing.actor, listing.propertyId);
    await ctx.db.aiJob.update({ where: { id: canceled }, data: { status: 'CANCELED' } });
    const othersJob = await submitWaiting(other.actor, other.propertyId);

    const line = testPaidStartLimiter(ctx.redis, ctx.tq);
    // The other agent's job took the slot just now and waits for nothing; its next job is ahead of ours.
    await line.tryAcquire({ tokenId: 'started', jobId: 'started', party: other.actor.id });
    await line.tryAcquire({ tokenId: 'o', jobId: othersJob, party: other.actor.id });
    await line.tryAcquire({ tokenId: 'a', jobId: first, party: listing.actor.id });
    await line.tryAcquire({ tokenId: 'b', jobId: second, party: listing.actor.id });

    const summary = await summarizeStartLine(ctx.deps, listing.actor);
    expect(summary).toEqual({ waiting: 2, isLowerBound: false, next: { position: expect.any(Number), expectedStartAt: expect.any(String) } });
    const othersSummary = await summarizeStartLine(ctx.deps, other.actor);
    expect(othersSummary.waiting).toBe(1);
    // The two agents share the line fairly: one of them is next, the other right behind.
    expect([summary.next!.position, othersSummary.next!.position].sort()).toEqual([1, 2]);
    expect(Date.parse(summary.next!.expectedStartAt) - Date.parse(othersSummary.next!.expectedStartAt)).toBe((summary.next!.position - othersSummary.next!.position) * 10_000);

    // A photo that left the line (it started) is no longer the first: the next one is.
    await line.leave(first);
    await ctx.db.aiJob.update({ where: { id: first }, data: { phase: null } });
    const after = await summarizeStartLine(ctx.deps, listing.actor);
    expect(after.waiting).toBe(1);
    expect(after.next).not.toBeNull();
  });

  it('answers nothing waiting for an agent with no jobs, and counts without places when Redis holds no line', async () => {
    const listing = await seedListing(ctx.db);
    expect(await summarizeStartLine(ctx.deps, listing.actor)).toEqual({ waiting: 0, isLowerBound: false, next: null });
    await submitWaiting(listing.actor, listing.propertyId);
    expect(await summarizeStartLine(ctx.deps, listing.actor)).toEqual({ waiting: 1, isLowerBound: false, next: null });
  });
});
