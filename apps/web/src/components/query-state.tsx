'use client';

import { errorSentence } from '@/lib/api-errors';

/**
 * The error state of a data fetch: what went wrong and a retry, so a page never stays stuck on a
 * failed or timed-out request. `onRetry` should refetch (react-query's `refetch`).
 */
export function QueryError({ error, onRetry, retrying = false, label = 'Try again' }: { error: unknown; onRetry: () => unknown; retrying?: boolean; label?: string }) {
  return (
    <div className="alert alert-error stack" role="alert" style={{ gap: '0.5rem' }} data-testid="query-error">
      <p style={{ margin: 0 }}>{errorSentence(error)}</p>
      <div>
        <button type="button" className="button button-small" onClick={() => void onRetry()} disabled={retrying}>
          {retrying ? 'Retrying…' : label}
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
