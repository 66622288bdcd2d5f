import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import { recoveryAllowanceMs, worstOffsetMs } from '@staging/domain/clock-offset';
import type { ClockOffset } from '@staging/domain/clock-offset';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { judgeListedPrediction, listedOfModel } from '@staging/provider/orphan-predictions';
import type { LedgerView, OrphanVerdict, OwnershipMarks } from '@staging/provider/orphan-predictions';
import { ProviderError } from '@staging/provider/provider-error';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { ListedPrediction, ListPredictionsOptions } from '@staging/provider/provider-wire';
import type { ProviderClock } from '@staging/services/staging/provider-clock';

/**
 * The reconciliation of the provider's list with the ledger (docs/decisions/staging.md "Orphan
 * predictions"): every pass lists the predictions of our model created in the recent window,
 * judges each against the attempts (orphan-predictions.ts) and cancels at once every running
 * purchase of ours that no attempt holds or is still recovering, with an alert.
 *
 * One pass at a time across every worker of the namespace, and at most one per interval: a Redis
 * key taken with NX for the pass, then left to expire one interval after the pass began. Its
 * list, get and cancel calls go through the shared read budget (provider-read-budget.ts); a
 * throttled call ends the pass, the next one reads the window again.
 */
export interface OrphanPredictionPassDeps {
  db: Db;
  redis: Redis;
  provider: Pick<ProviderClient, 'listPredictions' | 'cancelPrediction'>;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  /**
   * The provider's clock as last measured: the window and the recovery shield are on our clock,
   * `created_at` on the provider's, so both widen by the offset.
   */
  providerClock: Pick<ProviderClock, 'read'>;
  /** `owner/name` this deployment buys (PROVIDER_MODEL). */
  model: string;
  marks: OwnershipMarks;
  /** Predictions created this long before the pass are read. */
  windowMs: number;
  intervalMs: number;
  lockKey: string;
}

export interface OrphanPredictionPassResult {
  /** False when another worker's pass held the lock, or one ran within the interval. */
  ran: boolean;
  /** Entries of our model read (the other ones are not counted). */
  listed: number;
  /** False when the walk stopped before the end of the window (throttled, unavailable, page cap). */
  complete: boolean;
  canceled: string[];
  /** Orphans already terminal: spent, nothing left to stop (one alert each, across passes). */
  settled: string[];
}

/** A pass that is still running after this long no longer keeps others out. */
const PASS_LOCK_MS = 5 * 60_000;
/** Pages read per pass at most (100 predictions each on Replicate). */
const MAX_PAGES = 20;
/**
 * How far from a CREATING attempt's creatingAt an unclaimed entry is left to its recovery: at
 * least the span recovery walks (prediction-recovery.ts, five minutes each way), with room for
 * the widening a measured provider clock offset adds, and never less than that span itself.
 */
export const RECOVERY_SHIELD_MS = 10 * 60_000;
/** Created up to this far in the "future" of the worker's clock (a provider clock ahead). */
const FUTURE_MARGIN_MS = 5 * 60_000;

// Deletes the key only while it is still this pass's, else sets it to expire one interval after the pass began.
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local left = tonumber(ARGV[2])
if left <= 0 then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], left)
`;

export const ORPHAN_CANCELED_ALERT = 'orphan prediction canceled: a running purchase of ours that no attempt holds';
export const ORPHAN_SETTLED_ALERT = 'orphan prediction found finished: a purchase of ours that no attempt holds was paid for nothing';

export function orphanPassLockKey(queueName: string): string {
  return `staging:orphan-predictions:${queueName}`;
}

/** The window a pass reads: every prediction that may still run, whether Cancel-After holds or not. */
export function orphanWindowMs(cancelAfterSeconds: number): number {
  return Math.max(30 * 60_000, 2 * cancelAfterSeconds * 1000);
}

export async function runOrphanPredictionPass(deps: OrphanPredictionPassDeps): Promise<OrphanPredictionPassResult> {
  const startedAt = Date.now();
  const token = randomUUID();
  const result: OrphanPredictionPassResult = { ran: false, listed: 0, complete: false, canceled: [], settled: [] };
  if ((await deps.redis.set(deps.lockKey, token, 'PX', PASS_LOCK_MS, 'NX')) !== 'OK') return result;
  result.ran = true;
  try {
    const measured = await deps.providerClock.read();
    const walk = await listWindow(deps, startedAt, measured);
    result.listed = walk.entries.length;
    result.complete = walk.complete;
    // Read after the list: an attempt that claimed a listed purchase meanwhile holds it by now.
    const ledger = await readLedger(deps.db, walk.entries.map((entry) => entry.id), measured);
    const settled: ListedPrediction[] = [];
    for (const entry of walk.entries) {
      const verdict: OrphanVerdict = judgeListedPrediction(entry, { model: deps.model, marks: deps.marks, ledger });
      if (verdict === 'settled-orphan') settled.push(entry);
      if (verdict !== 'running-orphan') continue;
      const outcome = await cancelOrphan(deps, entry);
      if (outcome === 'canceled') result.canceled.push(entry.id);
      if (outcome === 'stop') {
        result.complete = false;
        break;
      }
    }
    for (const entry of settled) await alertSettledOnce(deps, entry);
    result.settled = settled.map((entry) => entry.id);
    deps.logger.debug({ loop: 'orphan-predictions', ...result, settled: result.settled.length }, 'orphan prediction pass');
    return result;
  } finally {
    await deps.redis.eval(RELEASE_SCRIPT, 1, deps.lockKey, token, deps.intervalMs - (Date.now() - startedAt));
  }
}

async function listWindow(
  deps: OrphanPredictionPassDeps,
  nowMs: number,
  measured: ClockOffset | null,
): Promise<{ entries: ListedPrediction[]; complete: boolean }> {
  const entries = new Map<string, ListedPrediction>();
  const skewMs = measured === null ? 0 : worstOffsetMs(measured);
  let request: ListPredictionsOptions = {
    createdAfter: new Date(nowMs - deps.windowMs - skewMs),
    createdBefore: new Date(nowMs + FUTURE_MARGIN_MS + skewMs),
  };
  for (let page = 0; page < MAX_PAGES; page += 1) {
    let read;
    try {
      read = await deps.provider.listPredictions(request);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.logger.warn({ loop: 'orphan-predictions', kind: error.kind, status: error.status }, 'provider list unavailable; the next pass reads the window again');
      return { entries: [...entries.values()], complete: false };
    }
    for (const entry of listedOfModel(read, deps.model)) entries.set(entry.id, entry);
    if (read.next === null) return { entries: [...entries.values()], complete: read.refusedNextOrigin === undefined };
    request = { next: read.next };
  }
  deps.logger.warn({ loop: 'orphan-predictions', pages: MAX_PAGES }, 'provider list not exhausted within the page cap; older predictions of the window unread');
  return { entries: [...entries.values()], complete: false };
}

async function readLedger(db: Db, predictionIds: string[], measured: ClockOffset | null): Promise<LedgerView> {
  const [held, recovering] = await Promise.all([
    db.aiProviderAttempt.findMany({ where: { providerPredictionId: { in: predictionIds } }, select: { providerPredictionId: true } }),
    db.aiProviderAttempt.findMany({
      where: { status: 'CREATING', providerPredictionId: null },
      select: { inputFingerprint: true, creatingAt: true, createdAt: true },
    }),
  ]);
  return {
    heldIds: new Set(held.map((row) => row.providerPredictionId).filter((id): id is string => id !== null)),
    recovering: recovering.map((row) => ({ inputFingerprint: row.inputFingerprint, creatingAtMs: (row.creatingAt ?? row.createdAt).getTime() })),
    recoverySpanMs: Math.max(RECOVERY_SHIELD_MS, recoveryAllowanceMs(measured)),
  };
}

/**
 * A terminal orphan is listed by every pass of the window; it is alerted once, so a person can
 * match it against the bill.
 */
async function alertSettledOnce(deps: OrphanPredictionPassDeps, entry: ListedPrediction): Promise<void> {
  if ((await markAlerted(deps, entry.id)) !== 'OK') return;
  deps.captureAlert({
    message: ORPHAN_SETTLED_ALERT,
    level: 'warning',
    tags: { predictionId: entry.id },
    extra: { predictionId: entry.id, createdAt: entry.created_at, status: entry.status },
  });
}

/** 'OK' the first time within two windows: the entry has left every pass's window by then. */
function markAlerted(deps: OrphanPredictionPassDeps, predictionId: string): Promise<'OK' | null> {
  return deps.redis.set(`${deps.lockKey}:alerted:${predictionId}`, '1', 'PX', deps.windowMs * 2, 'NX');
}

/** Cancels one orphan; `stop` when the provider's budget or availability ends the pass. */
async function cancelOrphan(deps: OrphanPredictionPassDeps, entry: ListedPrediction): Promise<'canceled' | 'gone' | 'stop' | 'refused'> {
  // Only IDs, times and statuses: the echoed input holds a signed URL of the photo.
  const facts = { predictionId: entry.id, createdAt: entry.created_at, status: entry.status };
  let status: string;
  try {
    status = (await deps.provider.cancelPrediction(entry.id)).status;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === 'not_found') return 'gone';
    deps.logger.warn({ loop: 'orphan-predictions', ...facts, kind: error.kind, status: error.status }, 'could not cancel an orphan prediction; the next pass tries again');
    return error.kind === 'throttled' || error.kind === 'server' || error.kind === 'network' ? 'stop' : 'refused';
  }
  // Later passes list it again, terminal now: the alert below is its only one.
  await markAlerted(deps, entry.id);
  // The alert is its own log line too (error-tracker.ts).
  deps.captureAlert({
    message: ORPHAN_CANCELED_ALERT,
    level: 'error',
    tags: { predictionId: entry.id },
    extra: { ...facts, statusAfterCancel: status },
  });
  return 'canceled';
}
