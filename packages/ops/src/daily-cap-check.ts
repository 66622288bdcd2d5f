import { createDb } from '@staging/db/client';
import { summarizeDailyPurchases } from '@staging/services/staging/daily-purchases';
import type { Finding } from './doctor-checks';

const CHECK = 'daily purchase cap';

/**
 * AI_DAILY_PURCHASE_CAP and the UTC day's purchases as the worker counts them: pass below the
 * alert threshold, warn from it (the worker has alerted) and once the cap is reached (jobs wait
 * for the next day), info without a cap.
 */
export async function checkDailyPurchases(
  databaseUrl: string,
  now: Date,
  cap: number | null,
): Promise<Finding[]> {
  const finding = (status: Finding['status'], detail: string): Finding[] => [
    { scope: 'shared', check: CHECK, status, detail },
  ];
  const db = createDb(databaseUrl, { maxConnections: 1 });
  try {
    const today = await summarizeDailyPurchases(db, now, cap);
    const count = `${today.purchases} paid attempt${today.purchases === 1 ? '' : 's'} today (UTC day ${today.day})`;
    if (today.cap === null) return finding('info', `AI_DAILY_PURCHASE_CAP unset (no cap); ${count}`);
    const detail = `AI_DAILY_PURCHASE_CAP=${today.cap}; ${count}`;
    if (today.purchases >= today.cap)
      return finding('warn', `${detail}: reached, new jobs wait until ${today.resetsAt}`);
    if (today.purchases >= today.alertThreshold)
      return finding('warn', `${detail}: past the 80 % alert threshold (${today.alertThreshold})`);
    return finding('pass', detail);
  } catch (error) {
    return finding('fail', error instanceof Error ? error.message : String(error));
  } finally {
    await db.$disconnect();
  }
}
