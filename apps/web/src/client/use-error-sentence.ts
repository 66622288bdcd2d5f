'use client';

import { useTranslations } from 'next-intl';
import { errorSentence, fieldError, issueText, stagingFailureText } from '@/lib/error-sentence';

/** {@link errorSentence} in the UI language. */
export function useErrorSentence(): (error: unknown) => string {
  const t = useTranslations('errors');
  return (error) => errorSentence(t, error);
}

/** The failed call's words for each field and for a bare issue ({@link fieldError}, {@link issueText}), in the UI language. */
export function useIssueText() {
  const t = useTranslations('errors');
  return {
    fieldError: (error: unknown, field: string) => fieldError(t, error, field),
    issueText: (issue: Parameters<typeof issueText>[1]) => issueText(t, issue),
  };
}

/** {@link stagingFailureText} in the UI language. */
export function useStagingFailureText(): (code: string | null) => string {
  const t = useTranslations('errors');
  return (code) => stagingFailureText(t, code);
}
