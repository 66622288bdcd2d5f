/**
 * How a provider call fails. Apart from the client so that callers which only tell failures apart
 * (retry, give up, recover) need not depend on how requests are made.
 */

export type ProviderErrorKind = 'throttled' | 'server' | 'network' | 'auth' | 'invalid' | 'not_found';

export type ProviderOperation = 'createPrediction' | 'getPrediction' | 'cancelPrediction' | 'listPredictions' | 'getModel';

export const AUTH_MESSAGE =
  'provider rejected the API token or organization (HTTP 401/403): check PROVIDER_API_TOKEN on the worker';

/**
 * Every failure of a provider call. Messages never contain the token or request URLs with query
 * strings, so the error can be logged and sent to the error tracker as is.
 *
 * A `network` error from createPrediction is ambiguous: the provider may have created (and will
 * bill) the prediction. Recover it with prediction-recovery.ts before creating again.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly operation: ProviderOperation;
  /** HTTP status when the provider answered, undefined for network failures. */
  readonly status: number | undefined;
  /** Seconds the provider asked us to wait (429 only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: {
    kind: ProviderErrorKind;
    operation: ProviderOperation;
    message: string;
    status?: number;
    retryAfterSeconds?: number;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.operation = options.operation;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** True for failures that may succeed when repeated later: throttling, 5xx and transport errors. */
export function isRetryableProviderError(error: unknown): boolean {
  return error instanceof ProviderError && (error.kind === 'throttled' || error.kind === 'server' || error.kind === 'network');
}

/** Signed URLs must not reach logs (docs/system.md 6): keep scheme, host and path of any URL, drop the rest. */
export function redactUrls(text: string): string {
  return text.replace(/\b(https?:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/g, '$1?[redacted]');
}

export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'throttled';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'server';
  // 400, 409, 422 and any other client error: the request itself is wrong, repeating it won't help.
  return 'invalid';
}

/**
 * Retry-After may be delta-seconds or an HTTP date. Replicate sends no such header and states the
 * wait only in the body: "Request was throttled. Your rate limit resets in ~30s." (its rate-limits
 * page today) or, in older wording, "Request was throttled. Expected available in 2 seconds.".
 */
export function parseRetryAfterSeconds(header: string | null, detail: string | undefined, now: Date = new Date()): number | undefined {
  if (header !== null && header.trim() !== '') {
    const value = header.trim();
    if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
  }
  const match = detail?.match(/available in (\d+(?:\.\d+)?) second/i) ?? detail?.match(/resets in ~?\s*(\d+(?:\.\d+)?)\s*s\b/i);
  return match?.[1] === undefined ? undefined : Math.ceil(Number(match[1]));
}

export function detailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const detail = ('detail' in body ? body.detail : undefined) ?? ('title' in body ? body.title : undefined);
  if (typeof detail === 'string') return detail;
  return detail === undefined ? undefined : JSON.stringify(detail);
}

// fetch errors come from undici's realm, so `instanceof Error` is unreliable (e.g. under Jest's VM).
export function errorName(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string' ? value.name : undefined;
}

/** "fetch failed" alone says nothing; the cause carries e.g. ECONNREFUSED or "other side closed". */
export function describeTransportError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth += 1) {
    const message = 'message' in current ? current.message : undefined;
    const code = 'code' in current ? current.code : undefined;
    if (typeof message === 'string' && message !== '') parts.push(message);
    if (typeof code === 'string' && !parts.includes(code)) parts.push(code);
    current = 'cause' in current ? current.cause : undefined;
  }
  return redactUrls(parts.length > 0 ? parts.join(': ') : String(error));
}
