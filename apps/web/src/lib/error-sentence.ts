import { ErrorReason, IssueCode, type ErrorCode, type FieldIssue } from '@staging/domain/errors';
import { isOneOf } from '@staging/domain/one-of';
import { isStagingErrorCode, type StagingErrorCode } from '@staging/domain/staging-errors';
import { describeError, type ClientErrorCode } from './api-errors';

type SentenceKey =
  | 'badRequest'
  | 'resultTooLarge'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'tooManyRequests'
  | 'tooLarge'
  | 'stagingUnavailable'
  | 'temporarilyUnavailable'
  | 'stagedImageCannotBeCover'
  | 'stagedImageDeleteForbidden'
  | 'styleRetired'
  | 'styleNotGeneratable'
  | 'internal'
  | 'network'
  | 'aborted'
  | 'unknown';
type ReasonKey = `reason.${ErrorReason}`;
type IssueKey = `issue.${IssueCode}`;
type StagingKey = `staging.${StagingErrorCode}` | 'stagingUnknown';

/** The `errors` messages of the UI language (next-intl's `useTranslations('errors')`). */
export type ErrorsTranslator = (key: SentenceKey | ReasonKey | IssueKey | StagingKey | 'tooManyRequestsWait', values?: Record<string, number>) => string;

/**
 * The sentence for each code a call can fail with, ours and the client's own. A Record, so a new
 * ErrorCode does not compile until it has words.
 */
const SENTENCE_OF_CODE: Record<ErrorCode | ClientErrorCode, SentenceKey> = {
  BAD_REQUEST: 'badRequest',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'notFound',
  CONFLICT: 'conflict',
  TOO_MANY_REQUESTS: 'tooManyRequests',
  PAYLOAD_TOO_LARGE: 'tooLarge',
  STAGING_UNAVAILABLE: 'stagingUnavailable',
  TEMPORARILY_UNAVAILABLE: 'temporarilyUnavailable',
  STAGED_IMAGE_CANNOT_BE_COVER: 'stagedImageCannotBeCover',
  STAGED_IMAGE_DELETE_FORBIDDEN: 'stagedImageDeleteForbidden',
  LEGACY_STYLE_RETIRED: 'styleRetired',
  STYLE_NOT_GENERATABLE: 'styleNotGeneratable',
  // Only the provider's webhook can meet it; nothing the agent did.
  INVALID_SIGNATURE: 'unknown',
  RESULT_TOO_LARGE: 'resultTooLarge',
  INTERNAL: 'internal',
  NETWORK: 'network',
  ABORTED: 'aborted',
};

// Looked up by any string a server sends, so only the codes above answer, never a property of Object.prototype.
const SENTENCE_BY_CODE: ReadonlyMap<string, SentenceKey> = new Map(Object.entries(SENTENCE_OF_CODE));

function sentenceKeyOf(code: string): SentenceKey {
  return SENTENCE_BY_CODE.get(code) ?? 'unknown';
}

/**
 * What is wrong with one field, in the UI language, from the issue's code and limit; an issue
 * without a code this release knows reads as an invalid value.
 */
export function issueText(t: ErrorsTranslator, issue: Pick<FieldIssue, 'code' | 'limit'>): string {
  const code = isOneOf(Object.values(IssueCode), issue.code) ? issue.code : IssueCode.INVALID;
  return t(`issue.${code}`, issue.limit === undefined ? undefined : { limit: issue.limit });
}

/**
 * One sentence for the user about any failed call, in the UI language, worded from the error's
 * code, its reason and its first field issue, never from the server's English message. A code
 * this release does not know gets a general sentence.
 */
export function errorSentence(t: ErrorsTranslator, error: unknown): string {
  const described = describeError(error);
  if (isOneOf(Object.values(ErrorReason), described.reason)) return t(`reason.${described.reason}`);
  const key = sentenceKeyOf(described.code);
  if (key === 'tooManyRequests' && described.retryAfterSeconds !== undefined) {
    return t('tooManyRequestsWait', { seconds: described.retryAfterSeconds });
  }
  const [issue] = described.issues;
  // A field issue says more than its code ("at most 50 characters" rather than "not accepted").
  if (issue !== undefined && (key === 'badRequest' || key === 'conflict')) return issueText(t, issue);
  return t(key);
}

/** The words for the issue the server reported at the field named `field` (last path segment). */
export function fieldError(t: ErrorsTranslator, error: unknown, field: string): string | undefined {
  const issue = describeError(error).issues.find((candidate) => candidate.path[candidate.path.length - 1] === field);
  return issue === undefined ? undefined : issueText(t, issue);
}

/**
 * What a failed staging job means for the agent, from the errorCode the worker wrote; a general
 * sentence for a code a newer worker may write before this release knows it.
 */
export function stagingFailureText(t: ErrorsTranslator, code: string | null): string {
  return isStagingErrorCode(code) ? t(`staging.${code}`) : t('stagingUnknown');
}
