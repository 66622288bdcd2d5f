/**
 * Finding the prediction a create call may have bought when its response never arrived (a crash,
 * a lost response, a transport error), using only what Replicate documents in a prediction
 * object. Replicate echoes `model`, `source` and `input` of every prediction in get, list and
 * webhook bodies until it removes the data (about an hour after completion); it does not promise
 * to echo `webhook`, nor to echo `input` byte for byte, nor to list a new prediction at once.
 * So the worker persists a fingerprint of the exact input before the create request, and
 * recovery walks the list of the time span around that request (docs/decisions/staging.md "Recovering a
 * CREATING attempt" and "Evidence for an unknown create").
 *
 * The list is account-wide: other tokens, models and website runs share it. Each entry is judged
 * on its own:
 * - another model, or a website run (`source: web`): someone else's, never doubt;
 * - our model with the same fixed input keys (everything but the image URL) and the same image
 *   URL: ours (unless another attempt already holds it: calls made within one second for the
 *   same photo send the same input, since the URL is signed to the second);
 * - our model, the fixed keys equal but another image URL, and nobody holds it: doubt (the
 *   provider may have rewritten the URL on echo, or another job of the same agent and style);
 * - our model without a readable input, or an entry that is not a readable prediction: doubt;
 * - our model with other fixed keys: someone else's.
 *
 * The answer is three-valued, because spending depends on the difference:
 * - `found`: this is the purchase; persist it.
 * - `absent`: the list was read through the whole span and nothing in it could be ours. One such
 *   walk proves nothing on its own (the list may lag); the caller decides when it is enough.
 * - `undecidable`: some entry in the span may be ours, or the walk stopped early. The caller must
 *   not buy again.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { ListedPrediction, PredictionInput, PredictionPage, ProviderClient } from './provider-client';

/** The keys the worker sends; an echo is compared on these only, so provider-added defaults don't matter. */
export const PREDICTION_INPUT_KEYS = [
  'prompt',
  'input_images',
  'aspect_ratio',
  'quality',
  'output_format',
  'output_compression',
  'user_id',
] as const satisfies readonly (keyof PredictionInput)[];

/** The sent keys that do not change from one create call of a job to the next (all but the URL). */
export const FIXED_INPUT_KEYS = PREDICTION_INPUT_KEYS.filter((key) => key !== 'input_images');

function fingerprintKeys(input: PredictionInput | Record<string, unknown>, keys: readonly string[]): string {
  const record = input as Record<string, unknown>;
  const picked = Object.fromEntries(keys.map((key) => [key, record[key]]));
  return createHash('sha256').update(canonicalize(picked) ?? '').digest('hex');
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of the input's sent keys. Safe to log and store. */
export function fingerprintPredictionInput(input: PredictionInput | Record<string, unknown>): string {
  return fingerprintKeys(input, PREDICTION_INPUT_KEYS);
}

/** {@link fingerprintPredictionInput} of the {@link FIXED_INPUT_KEYS} only. */
export function fingerprintFixedInput(input: Omit<PredictionInput, 'input_images'> | Record<string, unknown>): string {
  return fingerprintKeys(input, FIXED_INPUT_KEYS);
}

export type RecoverySearchResult =
  | { kind: 'found'; prediction: ListedPrediction }
  | { kind: 'absent'; scanned: number }
  | { kind: 'undecidable'; reason: string; scanned: number };

export interface RecoverySearchOptions {
  /** `owner/name` the create call named. */
  model: string;
  /** {@link fingerprintPredictionInput} of the input the create call sent. */
  inputFingerprint: string;
  /** {@link fingerprintFixedInput} of the same input. */
  fixedFingerprint: string;
  /** The callback URL sent; used only to exclude a prediction that echoes a different one. */
  webhook: string;
  /** When the create call was about to leave (persisted before the request). */
  sentAt: Date;
  /**
   * How far around `sentAt` the provider may put the creation (its clock, the request's time in
   * flight); default 5 minutes each way. The walk asks for exactly this span.
   */
  clockSkewMs?: number;
  /** Pages read at most (100 predictions each on Replicate); default 100. */
  maxPages?: number;
  /**
   * True when another attempt holds this prediction ID (asked only of a prediction whose fixed
   * input matches): a purchase with the same input, not ours, and the walk goes on past it.
   */
  isHeldElsewhere: (predictionId: string) => Promise<boolean>;
}

type Classification = 'ours' | 'other' | 'doubt';

async function classify(entry: PredictionPage['results'][number], options: RecoverySearchOptions): Promise<Classification> {
  if (!entry.readable) return 'doubt';
  if (entry.source === 'web') return 'other';
  if (entry.model !== null && entry.model !== options.model) return 'other';
  // Echoed only by some providers; when present it can only rule a prediction out.
  if (entry.webhook !== null && entry.webhook !== options.webhook) return 'other';
  const input = entry.input;
  if (entry.data_removed || input === null || FIXED_INPUT_KEYS.some((key) => !(key in input))) return 'doubt';
  if (fingerprintFixedInput(input) !== options.fixedFingerprint) return 'other';
  if (await options.isHeldElsewhere(entry.id)) return 'other';
  return fingerprintPredictionInput(input) === options.inputFingerprint ? 'ours' : 'doubt';
}

/** Walks the provider's prediction list of the span around `sentAt` for the purchase of one create call. */
export async function searchPredictionByInput(
  client: Pick<ProviderClient, 'listPredictions'>,
  options: RecoverySearchOptions,
): Promise<RecoverySearchResult> {
  const maxPages = options.maxPages ?? 100;
  const skewMs = options.clockSkewMs ?? 5 * 60_000;
  const createdAfter = new Date(options.sentAt.getTime() - skewMs);
  const createdBefore = new Date(options.sentAt.getTime() + skewMs);
  let doubts = 0;
  let scanned = 0;
  let next: string | null = null;
  for (let page = 0; page < maxPages; page += 1) {
    const { results, next: following }: PredictionPage = await client.listPredictions(
      next === null ? { createdAfter, createdBefore } : { next },
    );
    for (const entry of results) {
      const createdAt = entry.created_at === null ? Number.NaN : Date.parse(entry.created_at);
      // A provider that ignored the filters still lists newest first: past the span, stop.
      if (createdAt < createdAfter.getTime()) return settle(doubts, scanned);
      if (createdAt >= createdBefore.getTime()) continue;
      scanned += 1;
      const kind = await classify(entry, options);
      if (kind === 'ours' && entry.readable) return { kind: 'found', prediction: entry };
      if (kind === 'doubt') doubts += 1;
    }
    if (following === null) return settle(doubts, scanned);
    next = following;
  }
  return { kind: 'undecidable', reason: `the list was not exhausted after ${maxPages} pages`, scanned };
}

function settle(doubts: number, scanned: number): RecoverySearchResult {
  return doubts === 0
    ? { kind: 'absent', scanned }
    : { kind: 'undecidable', reason: `${doubts} prediction(s) in the time span may be ours (no readable input, or our input with another image URL)`, scanned };
}
