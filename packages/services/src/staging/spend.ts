import { z } from 'zod';
import type { Actor } from '../access/property-access';
import { accessiblePropertySql } from '../access/property-access';
import { summarizeDailyPurchases, ZDailyPurchases } from './daily-purchases';
import type { StagingProducerDeps } from './staging-deps';

/** One property's staging spend in one calendar month (UTC). Estimates, never charges. */
const ZSpendRow = z.strictObject({
  /** `YYYY-MM`, UTC. */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  propertyId: z.string(),
  propertyTitle: z.string(),
  /** Sum of the recorded attempt estimates in micro-US-dollars. */
  estimateMicrousd: z.int(),
  /** Attempts that bought (or may have bought) a prediction. */
  attempts: z.int().nonnegative(),
  /** Of those, attempts recorded without a price (AI_STAGING_COST_MICROUSD_* unset then). */
  attemptsWithoutEstimate: z.int().nonnegative(),
});

export const ZSpendSummary = z.strictObject({
  /** Always 'estimate': the figures come from configured prices, not from an invoice. */
  kind: z.literal('estimate'),
  /** First instant counted (start of the oldest month shown, UTC). */
  since: z.iso.datetime(),
  rows: z.array(ZSpendRow),
  today: ZDailyPurchases,
});
type SpendSummaryDto = z.infer<typeof ZSpendSummary>;

export const MAX_SPEND_MONTHS = 24;

/**
 * Estimated staging spend per month and property over the last `months` calendar months (the
 * current one included), for the properties the actor may manage (all of them for an admin). An
 * attempt counts in the month it was reserved, once it has a prediction or a recorded estimate:
 * a reservation the provider never saw bought nothing.
 */
export async function summarizeSpend(
  deps: Pick<StagingProducerDeps, 'db' | 'clock' | 'staging'>,
  input: { actor: Actor; months: number },
): Promise<SpendSummaryDto> {
  const now = deps.clock.now();
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (input.months - 1), 1));
  const rows = await deps.db.$queryRaw<{ month: string; propertyId: string; propertyTitle: string; estimate: bigint | null; attempts: number; unpriced: number }[]>`
    SELECT to_char(date_trunc('month', a."createdAt" AT TIME ZONE 'UTC'), 'YYYY-MM') AS "month",
      p."id" AS "propertyId", p."title" AS "propertyTitle",
      SUM(a."costMicrousd")::bigint AS "estimate",
      COUNT(*)::int AS "attempts",
      COUNT(*) FILTER (WHERE a."costMicrousd" IS NULL)::int AS "unpriced"
    FROM "ai_provider_attempts" a
      JOIN "ai_jobs" j ON j."id" = a."aiJobId"
      JOIN "properties" p ON p."id" = j."propertyId"
    WHERE j."type" = 'ROOM_STAGING' AND ${accessiblePropertySql(input.actor, 'p')}
      AND a."createdAt" >= ${since}
      AND (a."providerPredictionId" IS NOT NULL OR a."costMicrousd" IS NOT NULL OR a."status" = 'CREATING' OR a."errorCode" = 'PURCHASE_UNCONFIRMED')
    GROUP BY 1, p."id", p."title"
    ORDER BY 1 DESC, p."title", p."id"`;
  const today = await summarizeDailyPurchases(deps.db, now, deps.staging.dailyPurchaseCap);
  return {
    kind: 'estimate',
    since: since.toISOString(),
    today,
    rows: rows.map((row) => ({
      month: row.month,
      propertyId: row.propertyId,
      propertyTitle: row.propertyTitle,
      estimateMicrousd: Number(row.estimate ?? 0n),
      attempts: row.attempts,
      attemptsWithoutEstimate: row.unpriced,
    })),
  };
}
