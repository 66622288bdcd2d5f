import { describe, expect, test } from '@jest/globals';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { z } from 'zod';
import { AppError, ErrorCode, httpStatusOf } from '@staging/domain/errors';
import { appCodeOfTrpcCode, toTrpcError, TRPC_CODE_OF, validationIssues } from './error-mapping';

describe('AppError → tRPC', () => {
  test.each(Object.values(ErrorCode))('%s keeps the HTTP status the Express layer uses', (code) => {
    expect(getHTTPStatusCodeFromError(toTrpcError(new AppError(code, 'message')))).toBe(httpStatusOf[code]);
  });

  test("tRPC's own codes map back to our stable codes", () => {
    expect(appCodeOfTrpcCode('PARSE_ERROR')).toBe('BAD_REQUEST');
    expect(appCodeOfTrpcCode('METHOD_NOT_SUPPORTED')).toBe('BAD_REQUEST');
    expect(appCodeOfTrpcCode('NOT_FOUND')).toBe('NOT_FOUND');
    expect(appCodeOfTrpcCode('PAYLOAD_TOO_LARGE')).toBe('PAYLOAD_TOO_LARGE');
    expect(appCodeOfTrpcCode('INTERNAL_SERVER_ERROR')).toBe('INTERNAL');
  });

  test('STAGING_UNAVAILABLE is a 503 SERVICE_UNAVAILABLE', () => {
    expect(TRPC_CODE_OF.STAGING_UNAVAILABLE).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('validationIssues', () => {
  test('zod paths, with one issue per unrecognized key', () => {
    const schema = z.strictObject({ items: z.array(z.strictObject({ n: z.number() })) });
    const result = schema.safeParse({ items: [{ n: 'x', extra: 1, other: 2 }], top: true });
    expect(validationIssues(result.error)).toEqual([
      { path: ['items', 0, 'n'], message: expect.any(String), code: 'INVALID' },
      { path: ['items', 0, 'extra'], message: 'Unknown field', code: 'UNKNOWN_FIELD' },
      { path: ['items', 0, 'other'], message: 'Unknown field', code: 'UNKNOWN_FIELD' },
      { path: ['top'], message: 'Unknown field', code: 'UNKNOWN_FIELD' },
    ]);
  });

  test('Standard Schema `{ key }` segments and non-validation causes', () => {
    expect(validationIssues({ issues: [{ path: [{ key: 'a' }, 1], message: 'bad' }] })).toEqual([
      { path: ['a', 1], message: 'bad', code: 'INVALID' },
    ]);
    expect(validationIssues(new SyntaxError('Unexpected token'))).toBeUndefined();
    expect(validationIssues(undefined)).toBeUndefined();
  });
});
