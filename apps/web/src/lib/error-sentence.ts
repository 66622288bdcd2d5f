import { describeError } from './api-errors';

type ErrorsKey = 'tooManyRequests' | 'tooManyRequestsWait' | 'internal' | 'network' | 'tooLarge' | 'temporarilyUnavailable';

/** The `errors` messages of the UI language (next-intl's `useTranslations('errors')`). */
export type ErrorsTranslator = (key: ErrorsKey, values?: { seconds: number }) => string;

/**
 * One sentence for the user about any failed call, in the UI language, with the wait spelled out
 * for rate limits. Field issues and the server's own messages are shown as the server wrote them.
 */
export function errorSentence(t: ErrorsTranslator, error: unknown): string {
  const described = describeError(error);
  if (described.code === 'TOO_MANY_REQUESTS') {
    const seconds = described.retryAfterSeconds;
    return seconds === undefined ? t('tooManyRequests') : t('tooManyRequestsWait', { seconds });
  }
  if (described.code === 'INTERNAL') return t('internal');
  if (described.code === 'NETWORK') return t('network');
  if (described.code === 'PAYLOAD_TOO_LARGE') return t('tooLarge');
  if (described.code === 'TEMPORARILY_UNAVAILABLE') return t('temporarilyUnavailable');
  if (described.issues.length > 0) {
    return described.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
  }
  return described.message;
}
