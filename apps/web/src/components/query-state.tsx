'use client';

import { useTranslations } from 'next-intl';
import { useErrorSentence } from '@/client/use-error-sentence';

/**
 * The error state of a data fetch: what went wrong and a retry, so a page never stays stuck on a
 * failed or timed-out request. `onRetry` should refetch (react-query's `refetch`).
 */
export function QueryError({ error, onRetry, retrying = false }: { error: unknown; onRetry: () => unknown; retrying?: boolean }) {
  const t = useTranslations('common');
  const errorSentence = useErrorSentence();
  return (
    <div className="alert alert-error stack" role="alert" style={{ gap: '0.5rem' }} data-testid="query-error">
      <p style={{ margin: 0 }}>{errorSentence(error)}</p>
      <div>
        <button type="button" className="button button-small" onClick={() => void onRetry()} disabled={retrying}>
          {retrying ? t('retrying') : t('tryAgain')}
        </button>
      </div>
    </div>
  );
}

/** The loading state of a data fetch, announced once to screen readers. */
export function QueryLoading({ children }: { children: string }) {
  return (
    <p role="status" className="muted" data-testid="query-loading">
      {children}
    </p>
  );
}
