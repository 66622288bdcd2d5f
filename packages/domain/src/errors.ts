/**
 * Stable error codes of the service. Clients (web, native) localize by code, so a code once
 * published is never renamed. HTTP and tRPC mappings live beside the transports.
 */
export const ErrorCode = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  STAGING_UNAVAILABLE: 'STAGING_UNAVAILABLE',
  /** The database could not be reached or dropped the connection; the request may be tried again. */
  TEMPORARILY_UNAVAILABLE: 'TEMPORARILY_UNAVAILABLE',
  STAGED_IMAGE_CANNOT_BE_COVER: 'STAGED_IMAGE_CANNOT_BE_COVER',
  STAGED_IMAGE_DELETE_FORBIDDEN: 'STAGED_IMAGE_DELETE_FORBIDDEN',
  LEGACY_STYLE_RETIRED: 'LEGACY_STYLE_RETIRED',
  STYLE_NOT_GENERATABLE: 'STYLE_NOT_GENERATABLE',
  INVALID_SIGNATURE: 'INVALID_SIGNATURE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status for each code; the Express error middleware and the tRPC formatter both use it. */
export const httpStatusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  PAYLOAD_TOO_LARGE: 413,
  STAGING_UNAVAILABLE: 503,
  TEMPORARILY_UNAVAILABLE: 503,
  STAGED_IMAGE_CANNOT_BE_COVER: 400,
  STAGED_IMAGE_DELETE_FORBIDDEN: 400,
  LEGACY_STYLE_RETIRED: 400,
  STYLE_NOT_GENERATABLE: 400,
  INVALID_SIGNATURE: 401,
  INTERNAL: 500,
};

export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

/** The one error type use cases throw; transports map `code` to their own status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues: FieldIssue[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** With the CONFLICT of inventory.deleteUnit: the items the unit holds now, which would go with it. */
  readonly itemCount: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { issues?: FieldIssue[]; retryAfterSeconds?: number; itemCount?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.issues = options.issues;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.itemCount = options.itemCount;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
