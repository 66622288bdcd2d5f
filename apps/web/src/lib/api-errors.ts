import { TRPCClientError } from '@trpc/client';
import type { FieldIssue } from '@staging/domain/errors';

/** Codes the browser gives a call that never got an answer from us. */
export type ClientErrorCode = 'NETWORK' | 'ABORTED';

/** What the UI needs from any failed call: stable codes, field issues, a wait. Never shown as is. */
export interface DescribedError {
  /** Our stable application code (STAGING_UNAVAILABLE, TOO_MANY_REQUESTS, NOT_FOUND, …) or a ClientErrorCode. */
  code: string;
  /** A finer reason under the code (`ErrorReason`), when the server gave one. */
  reason: string | undefined;
  issues: FieldIssue[];
  retryAfterSeconds: number | undefined;
  /** With the CONFLICT of inventory.deleteUnit: the items the unit holds now. */
  itemCount: number | undefined;
}

interface ErrorData {
  appCode?: string;
  reason?: string;
  issues?: FieldIssue[];
  retryAfterSeconds?: number;
  itemCount?: number;
}

/** Normalizes a tRPC error (error.data.appCode/reason/issues/retryAfterSeconds) or anything else. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof TRPCClientError) {
    const data = error.data as ErrorData | undefined;
    return {
      // No data: the answer was not ours (the connection failed, or something in between answered).
      code: data === undefined ? 'NETWORK' : (data.appCode ?? 'INTERNAL'),
      reason: typeof data?.reason === 'string' ? data.reason : undefined,
      issues: Array.isArray(data?.issues) ? data.issues : [],
      retryAfterSeconds: typeof data?.retryAfterSeconds === 'number' ? data.retryAfterSeconds : undefined,
      itemCount: typeof data?.itemCount === 'number' ? data.itemCount : undefined,
    };
  }
  if (error instanceof HttpError) {
    return { code: error.code, reason: error.reason, issues: [], retryAfterSeconds: error.retryAfterSeconds, itemCount: undefined };
  }
  return { code: 'INTERNAL', reason: undefined, issues: [], retryAfterSeconds: undefined, itemCount: undefined };
}

/** Error of a REST call to the proxied api routes ({ error: { code, reason?, message } } bodies). */
export class HttpError extends Error {
  readonly code: string;
  readonly reason: string | undefined;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: { code: string; reason?: string; message: string }, retryAfterSeconds?: number) {
    super(body.message);
    this.name = 'HttpError';
    this.status = status;
    this.code = body.code;
    this.reason = body.reason;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The HttpError of a failed answer: its status, its `Retry-After`, and the code, reason and
 * message of its JSON body (a body that is not ours keeps the code the status implies).
 */
export function httpErrorFrom(status: number, bodyText: string, retryAfterHeader: string | null): HttpError {
  const body: { code: string; reason?: string; message: string } = {
    code: status === 429 ? 'TOO_MANY_REQUESTS' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INTERNAL',
    message: `Request failed (${status})`,
  };
  try {
    const { error } = JSON.parse(bodyText) as { error?: { code?: unknown; reason?: unknown; message?: unknown } };
    if (typeof error?.code === 'string') body.code = error.code;
    if (typeof error?.reason === 'string') body.reason = error.reason;
    if (typeof error?.message === 'string') body.message = error.message;
  } catch {
    // not JSON; keep the code of the status
  }
  const retryAfter = Number(retryAfterHeader);
  return new HttpError(status, body, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
}

/** Reads a failed REST response into an HttpError. */
export async function httpErrorOf(response: Response): Promise<HttpError> {
  return httpErrorFrom(response.status, await response.text().catch(() => ''), response.headers.get('retry-after'));
}
