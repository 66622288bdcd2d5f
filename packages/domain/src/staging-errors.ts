/**
 * Whether a failure may buy the second attempt. `retryable` failures of attempt 1 lead to
 * RETRYING; `terminal` ones (and any failure of attempt 2) end the job FAILED.
 */
export type StagingErrorCategory = 'retryable' | 'terminal';

/** Code, category and meaning of each worker failure written to ai_jobs.errorCode. */
export interface StagingErrorDefinition {
  category: StagingErrorCategory;
  description: string;
}

const retryable = (description: string): StagingErrorDefinition => ({ category: 'retryable', description });
const terminal = (description: string): StagingErrorDefinition => ({ category: 'terminal', description });

/**
 * The worker's error codes (ai_jobs.errorCode, ai_provider_attempts.errorCode). Categories follow
 * one question: would a new paid prediction with the same inputs plausibly succeed? Provider
 * outages, throttling, failed or aborted predictions and damaged downloads: yes. Credentials,
 * rejected inputs, and outputs that contradict the requested format, ratio or size limit: no,
 * a second purchase would repeat the problem.
 */
export const STAGING_ERRORS = {
  PROVIDER_THROTTLED: retryable('The provider answered 429 until the retry budget ran out.'),
  PROVIDER_UNAVAILABLE: retryable('The provider answered 5xx or could not be reached.'),
  PROVIDER_FAILED: retryable('The prediction failed for a transient reason (timeout, capacity, internal error).'),
  PROVIDER_FAILED_PERMANENT: terminal(
    'The prediction failed without evidence of a transient cause; paying again needs that evidence.',
  ),
  PROVIDER_ABORTED: retryable('The provider canceled or aborted the prediction without our request.'),
  PROVIDER_TIMEOUT: retryable('The prediction did not reach a terminal status in time and was canceled.'),
  PROVIDER_AUTH: terminal('The provider answered 401/403: wrong API token or organization.'),
  PROVIDER_REJECTED_INPUT: terminal('The provider refused the input (422 or a content policy rejection).'),
  OUTPUT_DOWNLOAD_FAILED: retryable('The output could not be downloaded.'),
  OUTPUT_TRUNCATED: retryable('The output image ended early and cannot be fully decoded.'),
  OUTPUT_NOT_IMAGE: retryable('The output is not a decodable image.'),
  OUTPUT_TOO_LARGE: terminal('The output exceeds the 20 MiB download ceiling.'),
  OUTPUT_WRONG_FORMAT: terminal('The output format differs from the requested output format.'),
  OUTPUT_WRONG_ASPECT_RATIO: terminal('The output aspect ratio differs from the requested one.'),
  ORIGINAL_MISSING: terminal('The original image or its stored object no longer exists.'),
  ATTEMPTS_EXHAUSTED: terminal('Attempt 2 failed too; a job never buys a third attempt.'),
  DAILY_PURCHASE_CAP_REACHED: retryable(
    'The day\'s purchases reached AI_DAILY_PURCHASE_CAP: nothing was bought; the job waits in this phase for the next UTC day.',
  ),
  PURCHASE_UNCONFIRMED: terminal(
    'A create call may have bought a prediction that the provider can no longer show (no callback, not found or unreadable in its list): nothing more is bought for the job; a person checks the bill and the agent may submit again.',
  ),
} as const satisfies Record<string, StagingErrorDefinition>;

/** One of the keys of {@link STAGING_ERRORS}. */
export type StagingErrorCode = keyof typeof STAGING_ERRORS;

/** Every staging error code. */
export const STAGING_ERROR_CODES = Object.keys(STAGING_ERRORS) as StagingErrorCode[];

/** True when `value` is a known staging error code. */
export function isStagingErrorCode(value: unknown): value is StagingErrorCode {
  return typeof value === 'string' && Object.hasOwn(STAGING_ERRORS, value);
}

/** The category of `code`. */
export function stagingErrorCategory(code: StagingErrorCode): StagingErrorCategory {
  return STAGING_ERRORS[code].category;
}

/**
 * True when a failure with this code may buy another attempt. Unknown codes (e.g. from a newer
 * release, read back from the database) are treated as terminal: spending is never the default.
 */
export function isRetryableStagingError(code: string | null | undefined): boolean {
  return isStagingErrorCode(code) && STAGING_ERRORS[code].category === 'retryable';
}
