'use client';

import { useLocale, useTranslations, type Messages, type NamespaceKeys, type NestedKeyOf } from 'next-intl';
import { useErrorSentence, useIssueText } from './use-error-sentence';

/**
 * The text every dashboard component speaks with: its own messages (`t`), the shared ones
 * (`tc`: Cancel, Delete…), the UI locale for numbers and vocabulary, and the words for a failed
 * call and its fields. One hook so a component does not open with the same four lookups as its neighbours.
 */
export function useDashboardText<Namespace extends NamespaceKeys<Messages, NestedKeyOf<Messages>>>(namespace: Namespace) {
  return {
    t: useTranslations(namespace),
    tc: useTranslations('common'),
    locale: useLocale(),
    errorSentence: useErrorSentence(),
    fieldError: useIssueText().fieldError,
  };
}
