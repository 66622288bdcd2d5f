'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { useIdSelection } from '@/client/use-id-selection';
import { MoreButton } from '@/components/more-button';
import { QueryError, QueryLoading } from '@/components/query-state';
import { ApproveDialog } from './approve-dialog';
import { PendingList } from './pending-list';
import { PublishedSection } from './published-section';
import { QueueStatus } from './queue-status';
import { RejectDialog } from './reject-dialog';
import { useReviewVariants, type ReviewVariant } from './review-data';
import { ReviewToolbar } from './review-toolbar';
import { usePendingQueue } from './use-pending-queue';
import { useQueueActions } from './use-queue-actions';
import { useQueueShortcuts } from './use-queue-shortcuts';
import { useReviewCursor } from './use-review-cursor';
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
  const { list, details, pending: waiting, approved, morePending, moreApproved, loading } = useReviewVariants();
  const { pending, setHidden } = usePendingQueue(waiting, focusImageId);
  const cursor = useReviewCursor(pending, focusImageId);
  const selection = useIdSelection();
  const actions = useQueueActions({ setHidden, cursor, selection });
  const { approvals, approve, reject, busy } = actions;
  const rejectOne = (item: ReviewVariant) => reject.open([item], false);
  useQueueShortcuts({ busy, pending, cursor, onApprove: approvals.start, onReject: rejectOne });

  if (list.isPending) return <QueryLoading>{t('loading')}</QueryLoading>;
  if (list.isError) return <QueryError error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;

  const selectedItems = pending.filter((item) => selection.selected.has(item.variant.id));
  return (
    <div className="stack">
      <QueueStatus loading={loading} waitingCount={pending.length} actions={actions} details={details} />
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
      <PendingList
        items={pending}
        describedBy={`${id}-keys`}
        cursor={cursor}
        selection={selection}
        busy={busy}
        onApprove={approvals.start}
        onReject={rejectOne}
      />
      <MoreButton more={morePending} label={t('morePending')} testId="review-more" />
      <PublishedSection id={id} items={approved} more={moreApproved} busy={busy} onTakeDown={(item) => reject.open([item], true)} />
      <ApproveDialog items={approve.confirming} busy={approve.isPending} onConfirm={approve.confirm} onCancel={approve.cancel} />
      <RejectDialog id={id} flow={reject} />
    </div>
  );
}
