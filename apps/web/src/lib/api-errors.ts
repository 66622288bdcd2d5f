import { TRPCClientError } from '@trpc/client';
import type { FieldIssue } from '@staging/domain/errors';
import { restErrorFieldsOf, trpcErrorDataOf } from './error-payloads';

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

/** Normalizes a tRPC error (error.data.appCode/reason/issues/retryAfterSeconds) or anything else. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof TRPCClientError) {
    const data = trpcErrorDataOf(error);
    return {
      // No data: the answer was not ours (the connection failed, or something in between answered).
      code: data === undefined ? 'NETWORK' : (data.appCode ?? 'INTERNAL'),
      reason: data?.reason,
      issues: data?.issues ?? [],
      retryAfterSeconds: data?.retryAfterSeconds,
      itemCount: data?.itemCount,
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
  const fields = restErrorFieldsOf(bodyText);
  const body = {
    code: fields.code ?? (status === 429 ? 'TOO_MANY_REQUESTS' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INTERNAL'),
    reason: fields.reason,
    message: fields.message ?? `Request failed (${status})`,
  };
  const retryAfter = Number(retryAfterHeader);
  return new HttpError(status, body, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
}

/** Reads a failed REST response into an HttpError. */
export async function httpErrorOf(response: Response): Promise<HttpError> {
  return httpErrorFrom(response.status, await response.text().catch(() => ''), response.headers.get('retry-after'));
}
