import { createProviderAttempt } from '@staging/db/testing/factories';
import { listSpendByProperty, summarizeSpend, SPEND_TOP_PROPERTIES } from './spend';
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
    await createProviderAttempt(ctx.db, {
      aiJobId: item!.aiJobId!,
      attemptNumber: index + 1,
      status: attempt.status ?? 'SUCCEEDED',
      createdAt: at,
      costMicrousd: attempt.cost,
      providerPredictionId: attempt.bought ? `pred-${item!.aiJobId}-${index}` : null,
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

  it('lists the top properties of each month with the month totals, and pages through all of them', async () => {
    const first = await seedListing(ctx.db);
    const listings = [first];
    for (let i = 1; i <= SPEND_TOP_PROPERTIES + 2; i += 1) listings.push(await seedListing(ctx.db, { ownerAgentId: first.actor.id }));
    for (const [index, listing] of listings.entries()) {
      await jobWithAttempts(listing, 'MODERN', new Date('2026-12-03T00:00:00.000Z'), [{ bought: true, cost: 1_000 * (index + 1) }]);
    }
    await jobWithAttempts(first, 'COASTAL', new Date('2026-11-03T00:00:00.000Z'), [{ bought: true, cost: null }]);

    const summary = await summarizeSpend(ctx.deps, { actor: first.actor, months: 2 });
    expect(summary.months).toEqual([
      { month: '2026-12', estimateMicrousd: 91_000, attempts: 13, attemptsWithoutEstimate: 0, hasMoreProperties: true },
      { month: '2026-11', estimateMicrousd: 0, attempts: 1, attemptsWithoutEstimate: 1, hasMoreProperties: false },
    ]);
    const december = summary.rows.filter((row) => row.month === '2026-12');
    expect(december.map((row) => row.estimateMicrousd)).toEqual([13_000, 12_000, 11_000, 10_000, 9_000, 8_000, 7_000, 6_000, 5_000, 4_000]);

    const paged: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await listSpendByProperty(ctx.deps, { actor: first.actor, month: '2026-12', limit: 5, ...(cursor === undefined ? {} : { cursor }) });
      paged.push(...page.items.map((row) => row.estimateMicrousd));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(paged).toEqual(Array.from({ length: 13 }, (_, i) => (13 - i) * 1_000));
  });

  it('keeps the running totals equal to a sum over the attempts through every kind of change', async () => {
    const a = await seedListing(ctx.db);
    const b = await seedListing(ctx.db, { ownerAgentId: a.actor.id });
    const c = await seedListing(ctx.db);
    const owners = [a.actor.id, c.actor.id];
    const properties = [a.propertyId, b.propertyId, c.propertyId];
    const expectTotalsToMatch = async () => {
      const kept = await ctx.db.$queryRaw<object[]>`
        SELECT "propertyId", "month", "ownerAgentId", "estimateMicrousd"::bigint AS "e", "attempts" AS "n", "attemptsWithoutEstimate" AS "u"
        FROM "ai_spend_property_months" WHERE "propertyId" = ANY(${properties}::text[]) AND "attempts" <> 0 ORDER BY 1, 2`;
      const summed = await ctx.db.$queryRaw<object[]>`
        SELECT p."id" AS "propertyId", to_char(a."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM') AS "month", p."ownerAgentId",
          COALESCE(SUM(a."costMicrousd"), 0)::bigint AS "e", COUNT(*)::int AS "n", COUNT(*) FILTER (WHERE a."costMicrousd" IS NULL)::int AS "u"
        FROM "ai_provider_attempts" a JOIN "ai_jobs" j ON j."id" = a."aiJobId" JOIN "properties" p ON p."id" = j."propertyId"
        WHERE p."id" = ANY(${properties}::text[])
          AND (a."providerPredictionId" IS NOT NULL OR a."costMicrousd" IS NOT NULL OR a."status" = 'CREATING' OR a."errorCode" = 'PURCHASE_UNCONFIRMED')
        GROUP BY 1, 2, 3 ORDER BY 1, 2`;
      expect(kept).toEqual(summed);
      const ownerTotals = await ctx.db.$queryRaw<object[]>`
        SELECT "ownerAgentId", "month", "estimateMicrousd"::bigint AS "e", "attempts" AS "n", "attemptsWithoutEstimate" AS "u"
        FROM "ai_spend_owner_months" WHERE "ownerAgentId" = ANY(${owners}::text[]) AND "attempts" <> 0 ORDER BY 1, 2`;
      const ownerSums = await ctx.db.$queryRaw<object[]>`
        SELECT "ownerAgentId", "month", SUM("estimateMicrousd")::bigint AS "e", SUM("attempts")::int AS "n", SUM("attemptsWithoutEstimate")::int AS "u"
        FROM "ai_spend_property_months" WHERE "ownerAgentId" = ANY(${owners}::text[]) GROUP BY 1, 2 HAVING SUM("attempts") <> 0 ORDER BY 1, 2`;
      expect(ownerTotals).toEqual(ownerSums);
    };

    await jobWithAttempts(a, 'MODERN', new Date('2026-12-01T00:00:00.000Z'), [{ bought: true, cost: 40_000, status: 'FAILED' }, { bought: false, cost: null, status: 'CREATING' }]);
    await jobWithAttempts(b, 'MODERN', new Date('2026-11-30T23:00:00.000Z'), [{ bought: true, cost: null }]);
    await jobWithAttempts(c, 'MODERN', new Date('2026-12-02T00:00:00.000Z'), [{ bought: true, cost: 7_000 }]);
    await expectTotalsToMatch();
    // The create call was refused: the attempt bought nothing after all.
    await ctx.db.aiProviderAttempt.updateMany({ where: { status: 'CREATING', aiJob: { propertyId: a.propertyId } }, data: { status: 'FAILED' } });
    // A price recorded late, and a prediction ID filled in by a callback.
    await ctx.db.aiProviderAttempt.updateMany({ where: { aiJob: { propertyId: b.propertyId } }, data: { costMicrousd: 5_000 } });
    await expectTotalsToMatch();
    await ctx.db.property.update({ where: { id: b.propertyId }, data: { ownerAgentId: c.actor.id } });
    await expectTotalsToMatch();
    await ctx.db.aiJob.deleteMany({ where: { propertyId: c.propertyId } });
    await ctx.db.property.delete({ where: { id: a.propertyId } });
    await expectTotalsToMatch();
  });
});
