'use client';

import { useTranslations } from 'next-intl';
import type { Dispatch, SetStateAction } from 'react';
import { useTRPCClient } from '@/client/trpc';
import { useErrorSentence } from '@/client/use-error-sentence';
import { useFocusTarget } from '@/client/use-focus-target';
import type { ReviewVariant } from './review-data';
import { useApprovalHold, type HeldApproval } from './use-approval-hold';
import { useDescribeVariant } from './use-describe-variant';
import type { ReviewActionDeps } from './use-review-outcome';

/** `set` without `imageId`. */
function without(set: ReadonlySet<string>, imageId: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(imageId);
  return next;
}

/**
 * Single approvals, held a few seconds with an Undo before they are sent. A held or sent approval
 * is out of the queue (`setHidden`) until the queue is read again; one that fails comes back.
 */
export function useReviewApprovals({
  setHidden,
  advancePast,
  moveTo,
  focusCurrent,
  report,
  refresh,
}: ReviewActionDeps & {
  setHidden: Dispatch<SetStateAction<ReadonlySet<string>>>;
  moveTo: (imageId: string, focus: boolean) => void;
  focusCurrent: () => void;
}) {
  const client = useTRPCClient();
  const t = useTranslations('review');
  const errorSentence = useErrorSentence();
  const describe = useDescribeVariant();
  // A held approval that lapsed, or whose page is being left: sent with keepalive, so it arrives
  // even from a page that is closing. After a lapse the queue says so; an Undo button that had
  // the focus is gone, so the current card takes it.
  const sendHeld = ({ key, item }: HeldApproval<ReviewVariant>) => {
    if (document.activeElement?.closest(`[data-hold-key="${key}"]`) != null) focusCurrent();
    client.ai.approveStagedVariant.mutate({ imageId: item.variant.id }, { context: { keepalive: true } }).then(
      async () => {
        report.show({ text: t('approvedOne', { what: describe(item) }), retry: [] });
        await refresh();
      },
      async (error: unknown) => {
        setHidden((old) => without(old, item.variant.id));
        report.announce({ text: errorSentence(error), retry: [], error: true });
        await refresh();
      },
    );
  };
  const approvals = useApprovalHold(sendHeld);
  // A new hold's Undo takes the focus from the card that left the queue.
  const undoFocus = useFocusTarget<HTMLButtonElement>();
  return {
    held: approvals.held,
    /** The Undo of the newest hold. */
    undoRef: undoFocus.ref,
    start: (item: ReviewVariant) => {
      setHidden((old) => new Set(old).add(item.variant.id));
      advancePast([item]);
      approvals.hold(item);
      undoFocus.moveFocus();
    },
    undo: (held: HeldApproval<ReviewVariant>) => {
      if (approvals.undo(held.key) === undefined) return;
      setHidden((old) => without(old, held.item.variant.id));
      moveTo(held.item.variant.id, true);
      report.show({ text: t('approvalWithdrawn', { what: describe(held.item) }), retry: [] });
    },
  };
}
