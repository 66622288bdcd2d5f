import type { DailyPurchasesDto } from '@staging/contracts/staging';
import type { Db, DbTransaction } from '@staging/db/client';
import { dailyPurchaseAlertThreshold, purchaseDayOf } from '@staging/domain/daily-purchase-cap';
import type { PurchaseDay } from '@staging/domain/daily-purchase-cap';

/** The day's purchases as AI_DAILY_PURCHASE_CAP counts them, split around one attempt. */
export interface DailyPurchaseCount {
  /** Attempts other than `attemptId` whose latest create call falls in the day. */
  others: number;
  /** `attemptId` itself counts in the day. */
  selfCounted: boolean;
}

/**
 * Purchases of `day` (packages/domain/src/daily-purchase-cap.ts): attempts whose latest
 * `creatingAt` falls in it, whatever happened to them after. The worker runs this inside the
 * transaction that marks an attempt CREATING; the spend page and the doctor read the total.
 */
export async function countDailyPurchases(
  db: Db | DbTransaction,
  day: PurchaseDay,
  attemptId: string | null = null,
): Promise<DailyPurchaseCount> {
  const [row] = await db.$queryRaw<{ others: number; selfCounted: boolean }[]>`
    SELECT COUNT(*) FILTER (WHERE a."id" IS DISTINCT FROM ${attemptId}::text)::int AS "others",
      COALESCE(BOOL_OR(a."id" = ${attemptId}::text), false) AS "selfCounted"
    FROM "ai_provider_attempts" a
    WHERE a."creatingAt" >= ${day.start} AND a."creatingAt" < ${day.end}`;
  return row ?? { others: 0, selfCounted: false };
}

/** The current UTC day's purchases against `cap`, for the spend page and the doctor. */
export async function summarizeDailyPurchases(
  db: Db,
  now: Date,
  cap: number | null,
): Promise<DailyPurchasesDto> {
  const day = purchaseDayOf(now);
  const counted = {
    day: day.start.toISOString().slice(0, 10),
    resetsAt: day.end.toISOString(),
    purchases: (await countDailyPurchases(db, day)).others,
  };
  return cap === null
    ? { ...counted, cap: null, alertThreshold: null }
    : { ...counted, cap, alertThreshold: dailyPurchaseAlertThreshold(cap) };
}
