import { TRPCClientError } from '@trpc/client';

/** A field-level problem reported by the server (zod path and message). */
export interface ErrorIssue {
  path: (string | number)[];
  message: string;
}

/** What the UI needs from any failed call: a stable code, a message, field issues, a wait. */
export interface DescribedError {
  /** Our stable application code (STAGING_UNAVAILABLE, TOO_MANY_REQUESTS, NOT_FOUND, …). */
  code: string;
  message: string;
  issues: ErrorIssue[];
  retryAfterSeconds: number | undefined;
  /** With the CONFLICT of inventory.deleteUnit: the items the unit holds now. */
  itemCount: number | undefined;
}

interface ErrorData {
  appCode?: string;
  issues?: ErrorIssue[];
  retryAfterSeconds?: number;
  itemCount?: number;
  httpStatus?: number;
}

/** Normalizes a tRPC error (error.data.appCode/issues/retryAfterSeconds) or anything else. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as ErrorData;
    return {
      code: data.appCode ?? 'INTERNAL',
      message: error.message,
      issues: Array.isArray(data.issues) ? data.issues : [],
      retryAfterSeconds: typeof data.retryAfterSeconds === 'number' ? data.retryAfterSeconds : undefined,
      itemCount: typeof data.itemCount === 'number' ? data.itemCount : undefined,
    };
  }
  if (error instanceof HttpError) {
    return { code: error.code, message: error.message, issues: [], retryAfterSeconds: error.retryAfterSeconds, itemCount: undefined };
  }
  return { code: 'INTERNAL', message: 'Something went wrong. Please try again.', issues: [], retryAfterSeconds: undefined, itemCount: undefined };
}

/** The first issue message whose path ends with `field` (for a message next to that input). */
export function issueFor(error: unknown, field: string): string | undefined {
  return describeError(error).issues.find((issue) => issue.path[issue.path.length - 1] === field)?.message;
}

/** Error of a REST call to the proxied api routes ({ error: { code, message } } bodies). */
export class HttpError extends Error {
  readonly code: string;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Reads a failed REST response into an HttpError. */
export async function httpErrorOf(response: Response): Promise<HttpError> {
  let code = response.status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL';
  let message = `Request failed (${response.status})`;
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {
    // not JSON; keep the generic text
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new HttpError(response.status, code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
}
