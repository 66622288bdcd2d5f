'use client';

import { useTranslations } from 'next-intl';
import { describeError } from '@/lib/api-errors';

/**
 * One sentence for the user about any failed call, in the UI language, with the wait spelled out
 * for rate limits. Field issues and the server's own messages are shown as the server wrote them.
 */
export function useErrorSentence(): (error: unknown) => string {
  const t = useTranslations('errors');
  return (error) => {
    const described = describeError(error);
    if (described.code === 'TOO_MANY_REQUESTS') {
      const seconds = described.retryAfterSeconds;
      return seconds === undefined ? t('tooManyRequests') : t('tooManyRequestsWait', { seconds });
    }
    if (described.code === 'INTERNAL') return t('internal');
    if (described.code === 'NETWORK') return t('network');
    if (described.code === 'PAYLOAD_TOO_LARGE') return t('tooLarge');
    if (described.issues.length > 0) {
      return described.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
    }
    return described.message;
  };
}
