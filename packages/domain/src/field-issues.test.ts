import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { fieldIssuesOf } from './field-issues';

function issuesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be refused');
  return fieldIssuesOf(result.error.issues).map(({ path, code, limit }) => ({ path, code, limit }));
}

describe('fieldIssuesOf', () => {
  test('sizes become codes a client words itself, with their limit', () => {
    const schema = z.strictObject({
      name: z.string().min(1).max(50),
      code: z.string().min(3),
      floor: z.number().int().min(-5).max(200),
      tags: z.array(z.string()).min(1).max(2),
    });
    expect(issuesOf(schema, { name: 'x'.repeat(51), code: 'ab', floor: 201, tags: ['a', 'b', 'c'] })).toEqual([
      { path: ['name'], code: 'TOO_LONG', limit: 50 },
      { path: ['code'], code: 'TOO_SHORT', limit: 3 },
      { path: ['floor'], code: 'TOO_BIG', limit: 200 },
      { path: ['tags'], code: 'TOO_MANY', limit: 2 },
    ]);
    expect(issuesOf(schema, { name: '', code: 'abc', floor: -6, tags: [] })).toEqual([
      { path: ['name'], code: 'REQUIRED', limit: undefined },
      { path: ['floor'], code: 'TOO_SMALL', limit: -5 },
      { path: ['tags'], code: 'TOO_FEW', limit: 1 },
    ]);
  });

  test('an exclusive bound, a wrong type or choice, and unknown keys', () => {
    const schema = z.strictObject({ price: z.number().positive(), status: z.enum(['A', 'B']), when: z.string() });
    expect(issuesOf(schema, { price: 0, status: 'C', when: 3, extra: 1, other: 2 })).toEqual([
      { path: ['price'], code: 'INVALID', limit: undefined },
      { path: ['status'], code: 'INVALID', limit: undefined },
      { path: ['when'], code: 'INVALID', limit: undefined },
      { path: ['extra'], code: 'UNKNOWN_FIELD', limit: undefined },
      { path: ['other'], code: 'UNKNOWN_FIELD', limit: undefined },
    ]);
  });

  test('keeps the English message for developers and flattens Standard Schema `{ key }` segments', () => {
    expect(fieldIssuesOf([{ path: [{ key: 'items' }, 0, 'unitNumber'], message: 'bad' }])).toEqual([
      { path: ['items', 0, 'unitNumber'], message: 'bad', code: 'INVALID' },
    ]);
  });
});
