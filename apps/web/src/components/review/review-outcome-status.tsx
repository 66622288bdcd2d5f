'use client';

import { useTranslations } from 'next-intl';
import type { Ref } from 'react';
import type { Outcome } from './use-review-outcome';

/** The queue's status line: the last outcome, with "Try again" after a rejection, or `idle`. */
export function ReviewOutcomeStatus({
  ref,
  outcome,
  idle,
  retrying,
  onRetry,
}: {
  ref: Ref<HTMLDivElement>;
  outcome: Outcome | undefined;
  idle: string;
  retrying: boolean;
  onRetry: (items: Outcome['retry']) => void;
}) {
  const t = useTranslations('review');
  return (
    <div role="status" aria-live="polite" ref={ref} tabIndex={-1} className={outcome === undefined ? 'muted' : outcome.error === true ? 'alert alert-error' : 'alert alert-success'}>
      {outcome?.text ?? idle}
      {outcome !== undefined && outcome.retry.length > 0 && (
        <div style={{ marginTop: '0.4rem' }}>
          <button type="button" className="button button-small" disabled={retrying} onClick={() => onRetry(outcome.retry)}>
            {retrying ? t('starting') : t('tryAgainSameStyle')}
          </button>
        </div>
      )}
    </div>
  );
}
