import { summarizeSpend } from './spend';
import { submitStaging } from './submit-staging';
import { seedListing, seedOtherAgent, useProducerTestContext } from './testing/staging-test-kit';
import type { SeededListing } from './testing/staging-test-kit';

const ctx = useProducerTestContext(new Date('2026-12-15T12:00:00.000Z'));

/** A job of `listing` whose attempts were reserved at `at` with these purchases and estimates. */
async function jobWithAttempts(
  listing: SeededListing,
  style: string,
  at: Date,
  attempts: { bought: boolean; cost: number | null; status?: 'SUCCEEDED' | 'FAILED' | 'RESERVED' | 'CREATING' }[],
): Promise<void> {
  const [item] = await submitStaging(ctx.deps, {
    actor: listing.actor,
    assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style }],
  });
  for (const [index, attempt] of attempts.entries()) {
    await ctx.db.aiProviderAttempt.create({
      data: {
        aiJobId: item!.aiJobId!,
        attemptNumber: index + 1,
        status: attempt.status ?? 'SUCCEEDED',
        createdAt: at,
        costMicrousd: attempt.cost,
        providerPredictionId: attempt.bought ? `pred-${item!.aiJobId}-${index}` : null,
      },
    });
  }
}

describe('summarizeSpend', () => {
  it('sums the estimates per UTC month and property; reservations that bought nothing do not count', async () => {
    const listing = await seedListing(ctx.db);
    await jobWithAttempts(listing, 'MODERN', new Date('2026-12-01T00:00:00.000Z'), [
      { bought: true, cost: 40_000, status: 'FAILED' },
      { bought: true, cost: 42_000 },
    ]);
    await jobWithAttempts(listing, 'COASTAL', new Date('2026-11-30T23:59:59.999Z'), [{ bought: true, cost: null }]);
    await jobWithAttempts(listing, 'INDUSTRIAL', new Date('2026-12-02T00:00:00.000Z'), [{ bought: false, cost: null, status: 'RESERVED' }]);
    // Older than the window asked for.
    await jobWithAttempts(listing, 'FARMHOUSE', new Date('2026-10-31T23:00:00.000Z'), [{ bought: true, cost: 99_000 }]);

    const summary = await summarizeSpend(ctx.deps, { actor: listing.actor, months: 2 });
    expect(summary.kind).toBe('estimate');
    expect(summary.since).toBe('2026-11-01T00:00:00.000Z');
    expect(summary.rows.map(({ propertyTitle: _title, ...row }) => row)).toEqual([
      { month: '2026-12', propertyId: listing.propertyId, estimateMicrousd: 82_000, attempts: 2, attemptsWithoutEstimate: 0 },
      { month: '2026-11', propertyId: listing.propertyId, estimateMicrousd: 0, attempts: 1, attemptsWithoutEstimate: 1 },
    ]);
  });

  it('shows an agent only their properties and an admin every property', async () => {
    const mine = await seedListing(ctx.db);
    const theirs = await seedListing(ctx.db);
    await jobWithAttempts(mine, 'MODERN', new Date('2026-12-05T00:00:00.000Z'), [{ bought: true, cost: 1_000 }]);
    await jobWithAttempts(theirs, 'MODERN', new Date('2026-12-05T00:00:00.000Z'), [{ bought: true, cost: 2_000 }]);

    const own = await summarizeSpend(ctx.deps, { actor: mine.actor, months: 1 });
    expect(own.rows.map((row) => row.propertyId)).toEqual([mine.propertyId]);
    expect((await summarizeSpend(ctx.deps, { actor: await seedOtherAgent(ctx.db), months: 1 })).rows).toEqual([]);

    const admin = await summarizeSpend(ctx.deps, { actor: { id: mine.actor.id, role: 'ADMIN' }, months: 1 });
    expect(admin.rows.map((row) => row.propertyId)).toEqual(expect.arrayContaining([mine.propertyId, theirs.propertyId]));
  });

  it("reports the UTC day's create calls of every property against the daily cap", async () => {
    const mine = await seedListing(ctx.db);
    const theirs = await seedListing(ctx.db);
    const sentAt = async (listing: SeededListing, style: string, creatingAt: Date | null) => {
      await jobWithAttempts(listing, style, new Date('2026-12-14T12:00:00.000Z'), [{ bought: false, cost: null, status: 'CREATING' }]);
      await ctx.db.aiProviderAttempt.updateMany({ where: { creatingAt: null, status: 'CREATING' }, data: { creatingAt } });
    };
    await sentAt(mine, 'MODERN', new Date('2026-12-15T00:00:00.000Z'));
    await sentAt(theirs, 'MODERN', new Date('2026-12-15T11:59:59.999Z'));
    await sentAt(mine, 'COASTAL', new Date('2026-12-14T23:59:59.999Z'));
    await jobWithAttempts(mine, 'INDUSTRIAL', new Date('2026-12-15T01:00:00.000Z'), [{ bought: false, cost: null, status: 'RESERVED' }]);

    const capped = { ...ctx.deps, staging: { ...ctx.deps.staging, dailyPurchaseCap: 40 } };
    expect((await summarizeSpend(capped, { actor: mine.actor, months: 1 })).today).toEqual({
      day: '2026-12-15',
      resetsAt: '2026-12-16T00:00:00.000Z',
      purchases: 2,
      cap: 40,
      alertThreshold: 32,
    });
    expect((await summarizeSpend(ctx.deps, { actor: mine.actor, months: 1 })).today.cap).toBeNull();
  });
});
