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
  /**
   * A whole-collection read over its documented bound (inventory.getUnits of a property with more
   * items than it answers in one piece); the message names the paginated procedures to use.
   */
  RESULT_TOO_LARGE: 'RESULT_TOO_LARGE',
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
  RESULT_TOO_LARGE: 422,
  INTERNAL: 500,
};

/**
 * Finer reasons under a code, as stable as the codes, for refusals a client words differently
 * from the rest of their code. The code keeps its meaning and status for clients that know no
 * reason.
 */
export const ErrorReason = {
  /** An upload that is not one complete JPEG, PNG or WebP image. */
  IMAGE_UNREADABLE: 'IMAGE_UNREADABLE',
  /** An upload in HEIC/HEIF, the iPhone camera's default format. */
  IMAGE_HEIF: 'IMAGE_HEIF',
  /** An animated or multi-page upload. */
  IMAGE_MULTI_FRAME: 'IMAGE_MULTI_FRAME',
} as const;
export type ErrorReason = (typeof ErrorReason)[keyof typeof ErrorReason];

/** What is wrong with one field, for a client to word in its language (`limit` says how much). */
export const IssueCode = {
  REQUIRED: 'REQUIRED',
  /** Text shorter than `limit` characters. */
  TOO_SHORT: 'TOO_SHORT',
  /** Text longer than `limit` characters. */
  TOO_LONG: 'TOO_LONG',
  /** A number below `limit`. */
  TOO_SMALL: 'TOO_SMALL',
  /** A number above `limit`. */
  TOO_BIG: 'TOO_BIG',
  /** A list with fewer than `limit` entries. */
  TOO_FEW: 'TOO_FEW',
  /** A list with more than `limit` entries. */
  TOO_MANY: 'TOO_MANY',
  /** A number that would leave ±`limit`. */
  OUT_OF_RANGE: 'OUT_OF_RANGE',
  /** A value taken by another record of the same scope. */
  ALREADY_USED: 'ALREADY_USED',
  UNKNOWN_FIELD: 'UNKNOWN_FIELD',
  NOT_FOUND: 'NOT_FOUND',
  /** Any other invalid value (wrong type, format or choice). */
  INVALID: 'INVALID',
} as const;
export type IssueCode = (typeof IssueCode)[keyof typeof IssueCode];

export interface FieldIssue {
  path: (string | number)[];
  /** English, for developers and logs; clients show their own words for `code`. */
  message: string;
  /** Absent: treat as INVALID. */
  code?: IssueCode;
  limit?: number;
}

/** The one error type use cases throw; transports map `code` to their own status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues: FieldIssue[] | undefined;
  readonly reason: ErrorReason | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** With the CONFLICT of inventory.deleteUnit: the items the unit holds now, which would go with it. */
  readonly itemCount: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { issues?: FieldIssue[]; reason?: ErrorReason; retryAfterSeconds?: number; itemCount?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.issues = options.issues;
    this.reason = options.reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.itemCount = options.itemCount;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
