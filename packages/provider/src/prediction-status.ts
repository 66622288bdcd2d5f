/**
 * Pure rules about provider prediction statuses: which are terminal and what a terminal
 * prediction means for the job. docs/system.md 3.1 allows attempt 2 only after a *retryable* terminal
 * failure of attempt 1, so this classification decides whether a second purchase happens.
 *
 * Rules (docs/decisions/provider.md, "Classifying terminal predictions"):
 * - succeeded -> succeeded (the output still has to pass validation);
 * - canceled -> canceled;
 * - aborted -> retryable_failure (terminated before it ever ran, e.g. its Cancel-After deadline
 *   passed in the queue: Replicate's OpenAPI status enum; nothing about our input was judged, see
 *   docs/decisions/staging.md "An aborted attempt is followed by attempt 2");
 * - failed -> permanent_failure when the error names a safety/moderation or input problem (the
 *   same request would fail again and be billed again), retryable_failure when it names a
 *   transient cause (timeout, internal/server error, capacity, interruption), and
 *   permanent_failure when the error is empty or unrecognised: a second paid attempt needs
 *   positive evidence that it can succeed.
 */
import type { Prediction, PredictionStatus } from './provider-wire';

export const TERMINAL_STATUSES: readonly PredictionStatus[] = ['succeeded', 'failed', 'canceled', 'aborted'];

export function isTerminal(status: PredictionStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export type TerminalOutcome = 'succeeded' | 'retryable_failure' | 'permanent_failure' | 'canceled';

export type FailureCategory = 'safety' | 'input' | 'timeout' | 'internal' | 'throttled' | 'aborted' | 'unknown';

const SAFETY = /\b(safety|sensitive|nsfw|moderation|moderated|content[ _-]?policy|flagged|E005)\b/i;
const INPUT =
  /\b(invalid input|input validation|validation (error|failed)|invalid image|unsupported (image|format|file)|cannot identify image|failed to (download|load|read) (the )?input|input image|error code: 4(0[0-79]|1\d|2[0-8]|[3-9]\d))\b/i;
const TIMEOUT = /\b(time[ds]? ?out|timeout|deadline)\b/i;
const THROTTLED = /\b(throttl\w*|rate[ _-]?limit\w*|too many requests|error code: 429)\b/i;
const INTERNAL =
  /\b(internal|server error|unavailable|overloaded|capacity|interrupted|connection (reset|refused|error)|ECONNRESET|out of memory|CUDA|try again|transient|error code: 5\d\d)\b/i;

/** Category of a failed prediction's error text, used for event payloads and the retry rule. */
export function categorizeFailure(error: string | null | undefined): FailureCategory {
  const text = error ?? '';
  // Safety and input are checked first: "input image download timed out" is still our input.
  if (SAFETY.test(text)) return 'safety';
  if (INPUT.test(text)) return 'input';
  if (TIMEOUT.test(text)) return 'timeout';
  if (THROTTLED.test(text)) return 'throttled';
  if (INTERNAL.test(text)) return 'internal';
  return 'unknown';
}

const RETRYABLE_CATEGORIES: readonly FailureCategory[] = ['timeout', 'throttled', 'internal', 'aborted'];

/** What a terminal prediction means for the job; throws for a non-terminal status. */
export function classifyTerminalPrediction(prediction: Pick<Prediction, 'status' | 'error'>): TerminalOutcome {
  switch (prediction.status) {
    case 'succeeded':
      return 'succeeded';
    case 'canceled':
      return 'canceled';
    case 'aborted':
      return 'retryable_failure';
    case 'failed':
      return RETRYABLE_CATEGORIES.includes(categorizeFailure(prediction.error)) ? 'retryable_failure' : 'permanent_failure';
    case 'starting':
    case 'processing':
      throw new Error(`prediction status "${prediction.status}" is not terminal`);
  }
}

/** The failure category of a terminal, unsuccessful prediction (aborted has its own). */
export function failureCategoryOf(prediction: Pick<Prediction, 'status' | 'error'>): FailureCategory {
  return prediction.status === 'aborted' ? 'aborted' : categorizeFailure(prediction.error);
}
