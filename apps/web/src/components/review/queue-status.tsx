'use client';

import { useTranslations } from 'next-intl';
import { useErrorSentence } from '@/client/use-error-sentence';
import { AlertMessage } from '@/components/alert-message';
import { QueryError } from '@/components/query-state';
import { ApprovalHolds } from './approval-holds';
import type { useReviewVariants } from './review-data';
import { ReviewOutcomeStatus } from './review-outcome-status';
import type { QueueActions } from './use-queue-actions';

/**
 * What the queue has to say above its items: the last outcome (or how many wait), the approvals
 * held for their Undo, a "Try again" that failed, and each page of variants that could not be read.
 */
export function QueueStatus({
  loading,
  waitingCount,
  actions: { outcome, approvals, tryAgain },
  details,
}: {
  loading: boolean;
  waitingCount: number;
  actions: Pick<QueueActions, 'outcome' | 'approvals' | 'tryAgain'>;
  details: ReturnType<typeof useReviewVariants>['details'];
}) {
  const t = useTranslations('review');
  const tc = useTranslations('common');
  const errorSentence = useErrorSentence();
  return (
    <>
      <ReviewOutcomeStatus
        ref={outcome.ref}
        outcome={outcome.outcome}
        idle={loading ? tc('loading') : t('waiting', { count: waitingCount })}
        retrying={tryAgain.isPending}
        onRetry={tryAgain.start}
      />
      <ApprovalHolds held={approvals.held} undoRef={approvals.undoRef} onUndo={approvals.undo} />
      <AlertMessage message={tryAgain.error === undefined ? undefined : errorSentence(tryAgain.error)} tone="page" />
      {details
        .filter((query) => query.isError)
        .map((query, index) => (
          <QueryError key={index} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ))}
    </>
  );
}
