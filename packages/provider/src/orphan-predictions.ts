/**
 * Which predictions of the provider's list are orphans: purchases of ours that no attempt of the
 * ledger will ever claim, so nothing would stop them before their Cancel-After deadline. Recovery
 * buys again once two list walks after the evidence deadline found nothing; a list that lags
 * longer than that window shows the first purchase only afterwards, unheld
 * (docs/decisions/staging.md "Orphan predictions").
 *
 * Each listed entry is judged on its own, against the ledger read after the list:
 * - another model, a website run, a source other than `api`, or an unreadable entry: foreign;
 * - an ID some attempt holds: held (of two purchases for one attempt, the held one is its own);
 * - an echoed input whose fingerprint a CREATING attempt without a prediction ID stored, or any
 *   entry created within such an attempt's recovery span: recovering, that attempt's recovery
 *   settles it. Replicate does not promise an exact echo, so an entry that differs may be that
 *   attempt's own purchase, whose `start` callback is still to come; recovery counts it as doubt
 *   and never buys past it, and canceling it here could kill the purchase a job is about to claim;
 * - otherwise, unless the entry carries a mark only this deployment puts on a create call, it may
 *   be another caller's on a shared account: unowned, never touched;
 * - ours and still running: an orphan to cancel; ours and terminal: a settled orphan (its cost is
 *   spent, there is nothing left to stop).
 */
import type { ListedPrediction, PredictionPage } from './provider-wire';
import { fingerprintPredictionInput } from './prediction-recovery';
import { STAGING_WEBHOOK_PATH_PREFIX } from './webhook-url';

/** What only this deployment's create calls carry. */
export interface OwnershipMarks {
  /**
   * Origin and path prefix of this deployment's object URLs (`https://bucket.host/` or
   * `http://host:port/bucket/`): every create sends a presigned URL of its original photo in the
   * bucket, which another caller of the same model has no credentials to sign.
   */
  objectUrlPrefix: string;
  /** Origin of the callback URLs sent (PROVIDER_WEBHOOK_BASE_URL); Replicate need not echo `webhook`. */
  webhookOrigin: string;
}

/** A CREATING attempt without a prediction ID: its purchase may be in the list, unclaimed yet. */
export interface RecoveringAttempt {
  /** Null for an attempt marked CREATING by a release before fingerprints. */
  inputFingerprint: string | null;
  creatingAtMs: number;
}

export interface LedgerView {
  /** Prediction IDs held by an attempt. */
  heldIds: ReadonlySet<string>;
  recovering: readonly RecoveringAttempt[];
  /** How far from `creatingAtMs` recovery looks for the purchase (its clock-skew span, each way). */
  recoverySpanMs: number;
}

export type OrphanVerdict = 'foreign' | 'held' | 'recovering' | 'unowned' | 'settled-orphan' | 'running-orphan';

/** Replicate's statuses before a prediction is terminal (a canceled run is billed up to then). */
const RUNNING_STATUSES: ReadonlySet<string> = new Set(['starting', 'processing']);

/** The prefix of `presignedUrl` before `key`; the URL must be one the storage signed for `key`. */
export function objectUrlPrefixOf(presignedUrl: string, key: string): string {
  const url = new URL(presignedUrl);
  if (!url.pathname.endsWith(`/${key}`)) throw new Error('the presigned URL does not end with the key it was signed for');
  return `${url.origin}${url.pathname.slice(0, url.pathname.length - key.length)}`;
}

/** The listed entries that may be ours at all: readable, of `model`, created through the API. */
export function listedOfModel(page: PredictionPage, model: string): ListedPrediction[] {
  return page.results.filter((entry): entry is ListedPrediction => entry.readable && entry.model === model && entry.source === 'api');
}

/** True when the entry carries one of the marks only this deployment sends. */
export function carriesOurMark(entry: ListedPrediction, marks: OwnershipMarks): boolean {
  if (entry.webhook !== null && isOurCallback(entry.webhook, marks.webhookOrigin)) return true;
  const images = entry.input?.['input_images'];
  if (!Array.isArray(images)) return false;
  return images.some((image) => typeof image === 'string' && isUnderPrefix(image, marks.objectUrlPrefix));
}

/** The fingerprint recovery compares, or null when the entry echoes no input. */
export function fingerprintOfListed(entry: ListedPrediction): string | null {
  return entry.input === null || entry.data_removed ? null : fingerprintPredictionInput(entry.input);
}

export function judgeListedPrediction(
  entry: ListedPrediction,
  options: { model: string; marks: OwnershipMarks; ledger: LedgerView },
): OrphanVerdict {
  if (entry.model !== options.model || entry.source !== 'api') return 'foreign';
  if (options.ledger.heldIds.has(entry.id)) return 'held';
  if (isRecovering(entry, options.ledger)) return 'recovering';
  if (!carriesOurMark(entry, options.marks)) return 'unowned';
  return RUNNING_STATUSES.has(entry.status) ? 'running-orphan' : 'settled-orphan';
}

function isRecovering(entry: ListedPrediction, ledger: LedgerView): boolean {
  if (ledger.recovering.length === 0) return false;
  const fingerprint = fingerprintOfListed(entry);
  const createdAtMs = Date.parse(entry.created_at);
  return ledger.recovering.some(
    (attempt) =>
      (fingerprint !== null && attempt.inputFingerprint === fingerprint) ||
      // An unreadable creation time cannot be placed outside the span.
      !(Math.abs(createdAtMs - attempt.creatingAtMs) > ledger.recoverySpanMs),
  );
}

function isOurCallback(url: string, webhookOrigin: string): boolean {
  const parsed = parseUrl(url);
  return parsed !== null && parsed.origin === webhookOrigin && parsed.pathname.startsWith(STAGING_WEBHOOK_PATH_PREFIX);
}

function isUnderPrefix(url: string, prefix: string): boolean {
  const parsed = parseUrl(url);
  return parsed !== null && `${parsed.origin}${parsed.pathname}`.startsWith(prefix);
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
