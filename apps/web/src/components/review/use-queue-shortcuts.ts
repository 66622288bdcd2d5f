'use client';

import type { ReviewVariant } from './review-data';
import type { useReviewCursor } from './use-review-cursor';
import { useReviewShortcuts } from './use-review-shortcuts';

/**
 * The queue's keys, on the current item: J/N next, K/P previous, A approve, R reject. Off while
 * `busy`, while typing or while a dialog is open.
 */
export function useQueueShortcuts({
  busy,
  pending,
  cursor,
  onApprove,
  onReject,
}: {
  busy: boolean;
  pending: readonly ReviewVariant[];
  cursor: Pick<ReturnType<typeof useReviewCursor>, 'current' | 'moveBy'>;
  onApprove: (item: ReviewVariant) => void;
  onReject: (item: ReviewVariant) => void;
}): void {
  const { current } = cursor;
  useReviewShortcuts(busy, (key) => {
    if ((key === 'j' || key === 'n') && pending.length > 0) cursor.moveBy(1);
    else if ((key === 'k' || key === 'p') && pending.length > 0) cursor.moveBy(-1);
    else if (key === 'a' && current !== undefined) onApprove(current);
    else if (key === 'r' && current !== undefined) onReject(current);
    else return false;
    return true;
  });
}
