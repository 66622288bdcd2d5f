'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { useIdSelection } from '@/client/use-id-selection';
import { useErrorSentence } from '@/client/use-error-sentence';
import { MoreButton } from '@/components/more-button';
import { QueryError, QueryLoading } from '@/components/query-state';
import { AlertMessage } from '@/components/alert-message';
import { ApprovalHolds } from './approval-holds';
import { ApproveDialog } from './approve-dialog';
import { PublishedSection } from './published-section';
import { RejectDialog } from './reject-dialog';
import { ReviewCard } from './review-card';
import { useReviewVariants, type ReviewVariant } from './review-data';
import { ReviewOutcomeStatus } from './review-outcome-status';
import { ReviewToolbar } from './review-toolbar';
import { useBulkApprove } from './use-bulk-approve';
import { useRejectFlow } from './use-reject-flow';
import { useReviewApprovals } from './use-review-approvals';
import { useReviewCursor } from './use-review-cursor';
import { useReviewOutcome } from './use-review-outcome';
import { useReviewRefresh } from './use-review-refresh';
import { useReviewShortcuts } from './use-review-shortcuts';
import { useStageAgain } from './use-stage-again';
import './review.css';

/**
 * The review queue: every variant waiting for the agent's review, one current item driven by
 * keyboard shortcuts (A approve, R reject, J/N next, K/P previous), an approval held a few seconds
 * with an Undo before it is sent, bulk approve/reject of a selection after a confirmation, "Try
 * again" right after a rejection, and the published variants with a take-down (the same
 * rejection: REJECTED event, row removed, object to the deletion outbox, search document rebuilt).
 */
export function ReviewQueue({ focusImageId }: { focusImageId: string | undefined }) {
  const id = useId();
  const t = useTranslations('review');
  const tc = useTranslations('common');
  const errorSentence = useErrorSentence();
  const refresh = useReviewRefresh();
  const { list, details, pending: waiting, approved, morePending, moreApproved, loading } = useReviewVariants();
  // A variant linked from the property page comes first.
  waiting.sort((a, b) => Number(b.variant.id === focusImageId) - Number(a.variant.id === focusImageId));
  // Approvals held for their Undo, and sent ones until the queue is read again, are out of it.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const pending = waiting.filter((item) => !hidden.has(item.variant.id));
  const cursor = useReviewCursor(pending, focusImageId);
  const { current } = cursor;
  const selection = useIdSelection();
  // The next item to review once `done` leave the queue.
  const advancePast = (done: ReviewVariant[]) => {
    const ids = new Set(done.map((item) => item.variant.id));
    cursor.advancePast(ids);
    selection.drop(ids);
  };
  const outcome = useReviewOutcome();
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
  const busy = approve.isPending || reject.isPending;

  // Shortcuts act on the current item; they are off while typing or while a dialog is open.
  useReviewShortcuts(busy, (key) => {
    if ((key === 'j' || key === 'n') && pending.length > 0) cursor.moveBy(1);
    else if ((key === 'k' || key === 'p') && pending.length > 0) cursor.moveBy(-1);
    else if (key === 'a' && current !== undefined) approvals.start(current);
    else if (key === 'r' && current !== undefined) reject.open([current], false);
    else return false;
    return true;
  });

  if (list.isPending) return <QueryLoading>{t('loading')}</QueryLoading>;
  if (list.isError) return <QueryError error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;

  const selectedItems = pending.filter((item) => selection.selected.has(item.variant.id));
  return (
    <div className="stack">
      <ReviewOutcomeStatus
        ref={outcome.ref}
        outcome={outcome.outcome}
        idle={loading ? tc('loading') : t('waiting', { count: pending.length })}
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
      <p className="small muted kbd-help" id={`${id}-keys`}>
        {t.rich('shortcuts', { kbd: (key) => <kbd>{key}</kbd> })}
      </p>
      {pending.length > 0 && (
        <ReviewToolbar
          allSelected={selectedItems.length === pending.length}
          selectedCount={selectedItems.length}
          busy={busy}
          onSelectAll={(on) => selection.pickOnly(on ? pending.map((item) => item.variant.id) : [])}
          onApproveSelected={() => approve.ask(selectedItems)}
          onRejectSelected={() => reject.open(selectedItems, false)}
        />
      )}
      {!loading && pending.length === 0 && <p>{t('nothing')}</p>}
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-describedby={`${id}-keys`}>
        {pending.map((item) => (
          <ReviewCard
            key={item.variant.id}
            item={item}
            current={item === current}
            reveal={item === current ? cursor.reveal : undefined}
            selected={selection.selected.has(item.variant.id)}
            busy={busy}
            onSelect={(on) => selection.toggle(item.variant.id, on)}
            onFocus={() => cursor.focused(item.variant.id)}
            onApprove={() => approvals.start(item)}
            onReject={() => reject.open([item], false)}
          />
        ))}
      </ul>
      <MoreButton more={morePending} label={t('morePending')} testId="review-more" />
      <PublishedSection id={id} items={approved} more={moreApproved} busy={busy} onTakeDown={(item) => reject.open([item], true)} />
      <ApproveDialog items={approve.confirming} busy={approve.isPending} onConfirm={approve.confirm} onCancel={approve.cancel} />
      <RejectDialog id={id} flow={reject} />
    </div>
  );
}
