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
 * Recovery compares with what the create call sent, as persisted before it left (the fingerprint of
 * the input, hashed user id included, and the callback URL), never with values recomputed from
 * current config: a rotated user-hash secret or a moved webhook base URL would make our own
 * purchase look like someone else's.
 *
 * The list is account-wide: other tokens, models and website runs share it. Each entry is judged
 * on its own:
 * - another model, or a website run (`source: web`): someone else's, never doubt;
 * - our model, held by another attempt of the ledger: someone else's (calls made within one
 *   second for the same photo send the same input, since the URL is signed to the second);
 * - our model echoing exactly the input sent (and, if it echoes a callback URL, the one sent):
 *   ours;
 * - any other entry of our model: doubt. An echo that differs from what was sent, in the image URL
 *   or in any other value, may be the provider's rewrite of our own purchase; nothing Replicate
 *   documents tells it apart from another caller's prediction. So is an entry without a readable
 *   input, or one that is not a readable prediction.
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
import type { ProviderClient } from './provider-client';
import type { ListedPrediction, ListPredictionsOptions, PredictionInput, PredictionPage } from './provider-wire';

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
  | { kind: 'found'; prediction: ListedPrediction }
  | { kind: 'absent'; scanned: number }
  | { kind: 'undecidable'; reason: string; scanned: number };

export interface RecoverySearchOptions {
  /** `owner/name` the create call named. */
  model: string;
  /** {@link fingerprintPredictionInput} of the input the create call sent, as persisted before it left. */
  inputFingerprint: string;
  /**
   * The callback URL the create call sent, as persisted; an echo of another one is never ours.
   * Null when it was not kept: an echoed callback URL then neither proves nor denies a match.
   */
  webhook: string | null;
  /** When the create call was about to leave (persisted before the request). */
  sentAt: Date;
  /**
   * How far around `sentAt` the provider may put the creation (its clock, the request's time in
   * flight); default 5 minutes each way. The walk asks for exactly this span. The worker passes 5
   * minutes widened by the provider clock's measured offset (domain clock-offset.ts).
   */
  clockSkewMs?: number;
  /** Pages read at most (100 predictions each on Replicate); default 100. */
  maxPages?: number;
  /**
   * True when another attempt holds this prediction ID (asked only of our model's predictions):
   * another purchase of ours, and the walk goes on past it.
   */
  isHeldElsewhere: (predictionId: string) => Promise<boolean>;
  /**
   * Called when a page's `next` link was off the API's list (PredictionPage `refusedNextOrigin`),
   * with the origin it named; the walk goes on by time instead.
   */
  onRefusedNext?: (origin: string) => void;
}

type Classification = 'ours' | 'other' | 'doubt';

async function classify(entry: PredictionPage['results'][number], options: RecoverySearchOptions): Promise<Classification> {
  if (!entry.readable) return 'doubt';
  if (entry.source === 'web') return 'other';
  if (entry.model !== null && entry.model !== options.model) return 'other';
  if (await options.isHeldElsewhere(entry.id)) return 'other';
  // Echoed only by some providers; when present and not the one sent, the entry is not provably ours.
  if (entry.webhook !== null && options.webhook !== null && entry.webhook !== options.webhook) return 'doubt';
  if (entry.data_removed || entry.input === null) return 'doubt';
  return fingerprintPredictionInput(entry.input) === options.inputFingerprint ? 'ours' : 'doubt';
}

/** Walks the provider's prediction list of the span around `sentAt` for the purchase of one create call. */
interface Span {
  after: number;
  before: number;
}

/** Walks the provider's prediction list of the span around `sentAt` for the purchase of one create call. */
export async function searchPredictionByInput(
  client: Pick<ProviderClient, 'listPredictions'>,
  options: RecoverySearchOptions,
): Promise<RecoverySearchResult> {
  const maxPages = options.maxPages ?? 100;
  const skewMs = options.clockSkewMs ?? 5 * 60_000;
  const sentMs = options.sentAt.getTime();
  let doubts = 0;
  let scanned = 0;
  let pages = 0;
  // Origin of a refused link whose page could not be read on by time, if any.
  let unreadAfter: string | null = null;
  // IDs judged already: reading on by time reads the oldest instant of a page again.
  const judged = new Set<string>();
  // Spans of creation time still to read; the last one is read first.
  const spans: Span[] = [{ after: sentMs - skewMs, before: sentMs + skewMs }];
  for (let span = spans.pop(); span !== undefined; span = spans.pop()) {
    let request: ListPredictionsOptions = { createdAfter: new Date(span.after), createdBefore: new Date(span.before) };
    for (;;) {
      if (pages >= maxPages) return { kind: 'undecidable', reason: `the list was not exhausted after ${maxPages} pages`, scanned };
      pages += 1;
      const { results, next, refusedNextOrigin }: PredictionPage = await client.listPredictions(request);
      let oldestMs = Number.POSITIVE_INFINITY;
      let pastSpan = false;
      for (const entry of results) {
        const createdAt = entry.created_at === null ? Number.NaN : Date.parse(entry.created_at);
        // A provider that ignored the filters still lists newest first: past the span, stop.
        if (createdAt < span.after) {
          pastSpan = true;
          break;
        }
        if (Number.isFinite(createdAt)) oldestMs = Math.min(oldestMs, createdAt);
        if (createdAt >= span.before) continue;
        if (entry.readable) {
          if (judged.has(entry.id)) continue;
          judged.add(entry.id);
        }
        scanned += 1;
        const kind = await classify(entry, options);
        if (kind === 'ours' && entry.readable) return { kind: 'found', prediction: entry };
        if (kind === 'doubt') doubts += 1;
      }
      if (next !== null && !pastSpan) {
        request = { next };
        continue;
      }
      if (refusedNextOrigin !== undefined && !pastSpan) {
        options.onRefusedNext?.(refusedNextOrigin);
        // Newest first: what is left unread was created up to this page's oldest instant. Read on
        // by time, with the filters Replicate documents: that instant on its own (its entries
        // judged already are skipped), then what is older. An instant that fills more than a page
        // cannot be read on, nor a page that shows nothing of the span.
        if (oldestMs >= span.before || span.before - span.after <= 1) unreadAfter = refusedNextOrigin;
        else spans.push({ after: span.after, before: oldestMs }, { after: oldestMs, before: oldestMs + 1 });
      }
      break;
    }
  }
  if (unreadAfter !== null) {
    return { kind: 'undecidable', reason: `the list's next link named another origin (${unreadAfter}) and the span could not be read on by time`, scanned };
  }
  return settle(doubts, scanned);
}

function settle(doubts: number, scanned: number): RecoverySearchResult {
  return doubts === 0
    ? { kind: 'absent', scanned }
    : { kind: 'undecidable', reason: `${doubts} prediction(s) of our model in the time span may be ours (no readable input, or an echo that differs from what was sent)`, scanned };
}
