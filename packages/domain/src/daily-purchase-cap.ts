/**
 * The daily cap on paid predictions (AI_DAILY_PURCHASE_CAP, docs/decisions/staging.md "A daily purchase
 * cap"). A purchase is an attempt that reached CREATING: from then on the provider may have
 * billed it, so the count never waits for a prediction ID. It counts in the UTC day of its
 * latest `creatingAt`; re-creating an attempt that bought nothing (a 429, or a crash the
 * provider shows no prediction for) moves it to the day of the new create call.
 */
import type { StagingErrorCode } from './staging-errors';

/** The job phase (and named code) of a job waiting because the day's purchases reached the cap. */
export const DAILY_PURCHASE_CAP_REACHED = 'DAILY_PURCHASE_CAP_REACHED' satisfies StagingErrorCode;

/** Share of the cap at which operators are alerted, once per day. */
export const DAILY_PURCHASE_CAP_ALERT_SHARE = 0.8;

const DAY_MS = 86_400_000;

/** The purchase day holding `at`: [start, end), UTC midnight to UTC midnight. */
export interface PurchaseDay {
  start: Date;
  end: Date;
}

/** The UTC day holding `at`. */
export function purchaseDayOf(at: Date): PurchaseDay {
  const startMs = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  return { start: new Date(startMs), end: new Date(startMs + DAY_MS) };
}

/** Purchases of the day that an alert is raised at: 80 % of the cap, rounded up, at least 1. */
export function dailyPurchaseAlertThreshold(cap: number): number {
  return Math.max(1, Math.ceil(cap * DAILY_PURCHASE_CAP_ALERT_SHARE));
}

export interface DailyPurchaseCheck {
  /** The cap; null means no cap. */
  cap: number | null;
  /** Purchases of the day by every other attempt. */
  others: number;
  /** The attempt about to buy already counts in the day (its earlier create call bought nothing). */
  selfCounted: boolean;
}

export type DailyPurchaseDecision =
  | {
      kind: 'allowed';
      /** This purchase is the one that reaches the alert threshold of the day. */
      alert: boolean;
    }
  | { kind: 'capped' };

/**
 * Whether one more create call fits under the cap. Allowed while the other attempts of the day
 * leave room for this one; the alert belongs to the purchase that takes the day's count from
 * below the threshold to it, so within a day it is raised once.
 */
export function decideDailyPurchase(check: DailyPurchaseCheck): DailyPurchaseDecision {
  if (check.cap === null) return { kind: 'allowed', alert: false };
  if (check.others >= check.cap) return { kind: 'capped' };
  const threshold = dailyPurchaseAlertThreshold(check.cap);
  const before = check.others + (check.selfCounted ? 1 : 0);
  return { kind: 'allowed', alert: before < threshold && check.others + 1 >= threshold };
}
