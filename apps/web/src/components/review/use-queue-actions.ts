'use client';

import type { Dispatch, SetStateAction } from 'react';
import type { useIdSelection } from '@/client/use-id-selection';
import type { ReviewVariant } from './review-data';
import { useBulkApprove } from './use-bulk-approve';
import { useRejectFlow } from './use-reject-flow';
import { useReviewApprovals } from './use-review-approvals';
import type { useReviewCursor } from './use-review-cursor';
import { useReviewOutcome } from './use-review-outcome';
import { useReviewRefresh } from './use-review-refresh';
import { useStageAgain } from './use-stage-again';

/**
 * Every action on the queue (a held approval, bulk approval, rejection or take-down, staging
 * again), each reporting in the one status line and moving the cursor and the selection past the
 * items it took out of the queue.
 */
export function useQueueActions({
  setHidden,
  cursor,
  selection,
}: {
  setHidden: Dispatch<SetStateAction<ReadonlySet<string>>>;
  cursor: Pick<ReturnType<typeof useReviewCursor>, 'advancePast' | 'moveTo' | 'focusCurrent'>;
  selection: Pick<ReturnType<typeof useIdSelection>, 'drop'>;
}) {
  const refresh = useReviewRefresh();
  const outcome = useReviewOutcome();
  // The next item to review once `done` leave the queue.
  const advancePast = (done: ReviewVariant[]) => {
    const ids = new Set(done.map((item) => item.variant.id));
    cursor.advancePast(ids);
    selection.drop(ids);
  };
  const approvals = useReviewApprovals({
    setHidden,
    advancePast,
    moveTo: cursor.moveTo,
    focusCurrent: cursor.focusCurrent,
    report: outcome,
    refresh,
  });
  const approve = useBulkApprove({ advancePast, report: outcome, refresh });
  const reject = useRejectFlow({ advancePast, report: outcome, refresh });
  const tryAgain = useStageAgain({ report: outcome, refresh });
  return { outcome, approvals, approve, reject, tryAgain, busy: approve.isPending || reject.isPending };
}

export type QueueActions = ReturnType<typeof useQueueActions>;
