/**
 * Finding the prediction a create call may have bought when its response never arrived (a crash,
 * a lost response, a transport error), using only what Replicate documents in a prediction
 * object. Replicate echoes the `input` of every prediction in get, list and webhook bodies until
 * it removes the data (about an hour after completion); it does not promise to echo `webhook`.
 * So the worker persists a fingerprint of the exact input before the create request, and
 * recovery walks the list looking for that fingerprint (docs/decisions.md "Recovering a CREATING
 * attempt"). The presigned input URL inside `input_images` makes the fingerprint unique per
 * create call, except that it is signed to the second: calls made within one second for the same
 * photo (attempt 2 right after attempt 1) send the same input. So a prediction the ledger already
 * ties to another attempt is never taken for this one's ({@link RecoverySearchOptions.isHeldElsewhere}).
 *
 * The answer is three-valued, because spending depends on the difference:
 * - `found`: this is the purchase; persist it.
 * - `absent`: the list was read back past the creation time and every prediction in that span
 *   could be told apart from ours: nothing was bought.
 * - `undecidable`: some prediction in the span had its input removed or unreadable, or the walk
 *   stopped before reaching the creation time. A purchase can be neither found nor ruled out, so
 *   the caller must not buy again.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Prediction, PredictionInput, PredictionPage, ProviderClient } from './provider-client';

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

/** SHA-256 (hex) of the RFC 8785 canonical JSON of the input's sent keys. Safe to log and store. */
export function fingerprintPredictionInput(input: PredictionInput | Record<string, unknown>): string {
  const record = input as Record<string, unknown>;
  const picked = Object.fromEntries(PREDICTION_INPUT_KEYS.map((key) => [key, record[key]]));
  return createHash('sha256').update(canonicalize(picked) ?? '').digest('hex');
}

export type RecoverySearchResult =
  | { kind: 'found'; prediction: Prediction }
  | { kind: 'absent'; scanned: number }
  | { kind: 'undecidable'; reason: string; scanned: number };

export interface RecoverySearchOptions {
  /** {@link fingerprintPredictionInput} of the input the create call sent. */
  inputFingerprint: string;
  /** The callback URL sent; used only to exclude a prediction that echoes a different one. */
  webhook: string;
  /** When the create call was about to leave (persisted before the request). */
  sentAt: Date;
  /** How far before `sentAt` the provider's clock may put the creation; default 5 minutes. */
  clockSkewMs?: number;
  /** Pages read at most (100 predictions each on Replicate); default 10. */
  maxPages?: number;
  /**
   * True when another attempt holds this prediction ID (asked only of a prediction whose input
   * matches): a purchase with the same input, not ours, and the walk goes on past it.
   */
  isHeldElsewhere: (predictionId: string) => Promise<boolean>;
}

type Classification = 'ours' | 'other' | 'unreadable';

function classify(prediction: Prediction, options: RecoverySearchOptions): Classification {
  // Echoed only by some providers; when present it can only rule a prediction out.
  if (typeof prediction.webhook === 'string' && prediction.webhook !== options.webhook) return 'other';
  const input = prediction.input;
  if (prediction.data_removed === true || input === undefined || PREDICTION_INPUT_KEYS.some((key) => !(key in input)))
    return 'unreadable';
  return fingerprintPredictionInput(input) === options.inputFingerprint ? 'ours' : 'other';
}

/** Walks the provider's prediction list (newest first) for the purchase of one create call. */
export async function searchPredictionByInput(
  client: Pick<ProviderClient, 'listPredictions'>,
  options: RecoverySearchOptions,
): Promise<RecoverySearchResult> {
  const maxPages = options.maxPages ?? 10;
  const floor = options.sentAt.getTime() - (options.clockSkewMs ?? 5 * 60_000);
  let unreadable = 0;
  let scanned = 0;
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page += 1) {
    const { results, next }: PredictionPage = await client.listPredictions({ cursor });
    for (const prediction of results) {
      if (Date.parse(prediction.created_at) < floor) return settle(unreadable, scanned);
      scanned += 1;
      const kind = classify(prediction, options);
      if (kind === 'ours' && !(await options.isHeldElsewhere(prediction.id))) return { kind: 'found', prediction };
      if (kind === 'unreadable') unreadable += 1;
    }
    if (next === null) return settle(unreadable, scanned);
    cursor = next;
  }
  return { kind: 'undecidable', reason: `the list was not exhausted after ${maxPages} pages`, scanned };
}

function settle(unreadable: number, scanned: number): RecoverySearchResult {
  return unreadable === 0
    ? { kind: 'absent', scanned }
    : { kind: 'undecidable', reason: `${unreadable} prediction(s) in the time span had no readable input`, scanned };
}
