/**
 * Enforces AI_DAILY_PURCHASE_CAP (packages/domain/src/daily-purchase-cap.ts) for every worker on
 * the database. The count of the day's purchases and the move of the attempt to CREATING happen
 * in one transaction that first takes a transaction-scoped advisory lock: two workers racing for
 * the last purchase are serialized, and under READ COMMITTED the second one's count (a statement
 * after the lock) already sees the first one's committed CREATING row. The day is the UTC day of
 * the very instant written as `creatingAt`, so worker clocks need not agree for the count of any
 * day to stay within the cap.
 *
 * Over the cap the job parks like the kill switch parks it: status kept, phase
 * DAILY_PURCHASE_CAP_REACHED, nothing bought, a new look at the next UTC midnight (or sooner, so a
 * raised cap frees it without waiting for midnight). The agent may cancel it meanwhile.
 */
import type { Db, DbTransaction } from '@staging/db/client';
import {
  DAILY_PURCHASE_CAP_REACHED,
  dailyPurchaseAlertThreshold,
  decideDailyPurchase,
  purchaseDayOf,
} from '@staging/domain/daily-purchase-cap';
import type { DailyPurchaseDecision } from '@staging/domain/daily-purchase-cap';
import { countDailyPurchases } from '@staging/services/staging/daily-purchases';
import { setJobPhase } from '@staging/services/staging/ledger/job-moves';
import type { StagingJobRow } from '@staging/services/staging/ledger/staging-job-reads';
import { wait } from './staging-deps';
import type { StagingDeps, StagingRun, StepResult } from './staging-deps';

// Any constant no other advisory lock of the database uses (packages/db/src/migrate.ts holds 72707369).
export const DAILY_CAP_LOCK_KEY = 72707370;
const CAP_RECHECK_MAX_MS = 5 * 60_000;

/** Parks the job when the day's purchases leave no room for `attemptId`; null when there is room. */
export async function parkWhileCapReached(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
  attemptId: string,
): Promise<StepResult | null> {
  const cap = deps.settings.dailyPurchaseCap;
  if (cap === null) return null;
  const now = new Date();
  // Unlocked: only spares a parked job the paid-start token; markCreatingWithinCap decides.
  const count = await countDailyPurchases(deps.db, purchaseDayOf(now), attemptId);
  if (decideDailyPurchase({ cap, ...count }).kind === 'allowed') return null;
  return parkAtCap(deps, run, job, now);
}

/**
 * Runs `mark` (the conditional move to CREATING, writing `creatingAt`) when the cap leaves room
 * for it, atomically with the count. 'marked' means the caller may send the create call; any
 * other result is the step to return instead.
 */
export async function markCreatingWithinCap(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
  attemptId: string,
  creatingAt: Date,
  mark: (db: Db | DbTransaction) => Promise<boolean>,
): Promise<'marked' | StepResult> {
  const cap = deps.settings.dailyPurchaseCap;
  if (cap === null) return (await mark(deps.db)) ? 'marked' : 'continue';
  const day = purchaseDayOf(creatingAt);
  const result = await deps.db.$transaction(
    async (tx): Promise<(DailyPurchaseDecision & { others: number }) | 'stale'> => {
      await tx.$queryRaw`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${DAILY_CAP_LOCK_KEY}::bigint)`;
      const count = await countDailyPurchases(tx, day, attemptId);
      const decision = decideDailyPurchase({ cap, ...count });
      if (decision.kind === 'allowed' && !(await mark(tx))) return 'stale';
      return { ...decision, others: count.others };
    },
  );
  if (result === 'stale') return 'continue';
  // advanceCreation cleared the phase before this purchase, whatever `job` still says.
  if (result.kind === 'capped') return parkAtCap(deps, run, { ...job, phase: null }, creatingAt);
  if (result.alert) {
    const purchases = result.others + 1;
    deps.captureAlert({
      message: `daily purchase cap: ${purchases} of ${cap} paid predictions bought on ${day.start.toISOString().slice(0, 10)} (UTC)`,
      level: 'warning',
      tags: {
        jobId: run.jobId,
        errorCode: 'DAILY_PURCHASE_CAP_NEAR',
        purchases,
        cap,
        threshold: dailyPurchaseAlertThreshold(cap),
      },
    });
  }
  return 'marked';
}

async function parkAtCap(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
  now: Date,
): Promise<StepResult> {
  const resumesAt = purchaseDayOf(now).end;
  if (job.phase !== DAILY_PURCHASE_CAP_REACHED) {
    await setJobPhase(deps.db, job, DAILY_PURCHASE_CAP_REACHED);
    deps.logger.info(
      {
        jobId: run.jobId,
        status: job.status,
        cap: deps.settings.dailyPurchaseCap,
        resumesAt: resumesAt.toISOString(),
      },
      'daily purchase cap reached: job parked without purchase',
    );
  }
  return wait(Math.min(resumesAt.getTime() - now.getTime(), CAP_RECHECK_MAX_MS), 'daily-purchase-cap');
}
