import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ErrorCode } from '@staging/domain/errors';
import { fieldIssuesOf, type SchemaIssueLike } from '@staging/domain/field-issues';
import { isOneOf } from '@staging/domain/one-of';
import type { AppError, FieldIssue } from '@staging/domain/errors';

/** AppError codes that are tRPC codes of the same name and meaning. */
const SHARED_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'PAYLOAD_TOO_LARGE',
] as const satisfies readonly (ErrorCode & TRPC_ERROR_CODE_KEY)[];
type SharedCode = (typeof SHARED_CODES)[number];

/**
 * tRPC code for each AppError code. A Record, so a new ErrorCode does not compile until it is
 * mapped; the HTTP statuses this yields equal `httpStatusOf` (checked by a test).
 */
export const TRPC_CODE_OF: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  ...(Object.fromEntries(SHARED_CODES.map((code) => [code, code])) as Record<SharedCode, SharedCode>),
  STAGING_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  TEMPORARILY_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  STAGED_IMAGE_CANNOT_BE_COVER: 'BAD_REQUEST',
  STAGED_IMAGE_DELETE_FORBIDDEN: 'BAD_REQUEST',
  LEGACY_STYLE_RETIRED: 'BAD_REQUEST',
  STYLE_NOT_GENERATABLE: 'BAD_REQUEST',
  INVALID_SIGNATURE: 'UNAUTHORIZED',
  RESULT_TOO_LARGE: 'UNPROCESSABLE_CONTENT',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

/** Our stable code for errors tRPC itself raises (bad JSON, unknown path, oversized body…). */
export function appCodeOfTrpcCode(code: TRPC_ERROR_CODE_KEY): ErrorCode {
  if (isOneOf(SHARED_CODES, code)) return code;
  switch (code) {
    case 'INTERNAL_SERVER_ERROR':
    case 'NOT_IMPLEMENTED':
    case 'BAD_GATEWAY':
    case 'SERVICE_UNAVAILABLE':
    case 'GATEWAY_TIMEOUT':
      return ErrorCode.INTERNAL;
    default:
      // PARSE_ERROR, BAD_REQUEST, METHOD_NOT_SUPPORTED, UNSUPPORTED_MEDIA_TYPE, …: the request.
      return ErrorCode.BAD_REQUEST;
  }
}

export function toTrpcError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_OF[error.code], message: error.message, cause: error });
}

/**
 * Field issues from a validation error (zod or any Standard Schema, see `fieldIssuesOf`), or
 * undefined when `cause` is not one.
 */
export function validationIssues(cause: unknown): FieldIssue[] | undefined {
  if (typeof cause !== 'object' || cause === null || !('issues' in cause) || !Array.isArray(cause.issues)) {
    return undefined;
  }
  return fieldIssuesOf(cause.issues as SchemaIssueLike[]);
}
