import { IssueCode, type FieldIssue } from './errors';

/** The parts of a zod (or any Standard Schema) issue that say which field and what is wrong. */
export interface SchemaIssueLike {
  readonly path?: readonly unknown[];
  readonly message: string;
  readonly code?: string;
  readonly origin?: string;
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly inclusive?: boolean;
  readonly keys?: readonly string[];
}

function pathSegment(segment: unknown): string | number {
  if (typeof segment === 'string' || typeof segment === 'number') return segment;
  // Standard Schema allows `{ key }` path segments.
  if (typeof segment === 'object' && segment !== null && 'key' in segment) return pathSegment(segment.key);
  return String(segment);
}

const LENGTH_ORIGINS = new Set(['string']);
const COUNT_ORIGINS = new Set(['array', 'set']);

/** The code and limit of a size issue; an exclusive bound has no "at least"/"at most" wording. */
function sizeIssue(issue: SchemaIssueLike): Pick<FieldIssue, 'code' | 'limit'> {
  const below = issue.code === 'too_small';
  const bound = below ? issue.minimum : issue.maximum;
  if (bound === undefined || issue.inclusive === false) return { code: IssueCode.INVALID };
  const limit = Number(bound);
  const origin = issue.origin ?? '';
  if (LENGTH_ORIGINS.has(origin)) {
    if (below && limit === 1) return { code: IssueCode.REQUIRED };
    return { code: below ? IssueCode.TOO_SHORT : IssueCode.TOO_LONG, limit };
  }
  if (COUNT_ORIGINS.has(origin)) return { code: below ? IssueCode.TOO_FEW : IssueCode.TOO_MANY, limit };
  return { code: below ? IssueCode.TOO_SMALL : IssueCode.TOO_BIG, limit };
}

/**
 * Field issues from the issues of a failed validation: the path as plain keys, the schema's
 * English message, and a code (with its limit) a client words in its own language. An
 * unrecognized-keys issue becomes one issue per key, with the key in the path, so a client can
 * highlight the offending field like any other.
 */
export function fieldIssuesOf(issues: readonly SchemaIssueLike[]): FieldIssue[] {
  return issues.flatMap((issue): FieldIssue[] => {
    const path = (issue.path ?? []).map(pathSegment);
    if (issue.code === 'unrecognized_keys' && issue.keys !== undefined) {
      return issue.keys.map((key) => ({ path: [...path, key], message: 'Unknown field', code: IssueCode.UNKNOWN_FIELD }));
    }
    const wording = issue.code === 'too_small' || issue.code === 'too_big' ? sizeIssue(issue) : { code: IssueCode.INVALID };
    return [{ path, message: issue.message, ...wording }];
  });
}
