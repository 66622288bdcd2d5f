'use client';

import { useTranslations } from 'next-intl';
import { errorSentence } from '@/lib/error-sentence';

/** {@link errorSentence} in the UI language. */
export function useErrorSentence(): (error: unknown) => string {
  const t = useTranslations('errors');
  return (error) => errorSentence(t, error);
}
