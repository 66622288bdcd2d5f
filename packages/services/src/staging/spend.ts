import { purchaseDayOf } from '@staging/domain/daily-purchase-cap';
import type { Actor } from '../access/property-access';
import { accessiblePropertySql } from '../access/property-access';
import { countDailyPurchases } from './daily-purchases';
import type { StagingProducerDeps } from './staging-deps';

/** One property's staging spend in one calendar month (UTC). Estimates, never charges. */
export interface SpendRowDto {
  /** `YYYY-MM`, UTC. */
  month: string;
  propertyId: string;
  propertyTitle: string;
  /** Sum of the recorded attempt estimates in micro-US-dollars. */
  estimateMicrousd: number;
  /** Attempts that bought (or may have bought) a prediction. */
  attempts: number;
  /** Of those, attempts recorded without a price (AI_STAGING_COST_MICROUSD_* unset then). */
  attemptsWithoutEstimate: number;
}

/**
 * Today's purchases against AI_DAILY_PURCHASE_CAP. Account-wide for every viewer, because the cap
 * is: it explains why a job waits even when the agent's own properties bought little.
 */
export interface DailyPurchasesDto {
  /** `YYYY-MM-DD`, the current UTC day. */
  day: string;
  /** Next UTC midnight, when the count starts again and parked jobs resume. */
  resetsAt: string;
  /** Attempts whose create call was sent today (packages/domain/src/daily-purchase-cap.ts). */
  purchases: number;
  /** null when no cap is set. */
  cap: number | null;
}

export interface SpendSummaryDto {
  /** Always 'estimate': the figures come from configured prices, not from an invoice. */
  kind: 'estimate';
  /** First instant counted (start of the oldest month shown, UTC). */
  since: string;
  rows: SpendRowDto[];
  today: DailyPurchasesDto;
}

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
  const day = purchaseDayOf(now);
  const purchases = (await countDailyPurchases(deps.db, day)).others;
  return {
    kind: 'estimate',
    since: since.toISOString(),
    today: { day: day.start.toISOString().slice(0, 10), resetsAt: day.end.toISOString(), purchases, cap: deps.staging.dailyPurchaseCap },
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
