'use client';

import { useTranslations } from 'next-intl';
import type { Ref } from 'react';
import type { ReviewVariant } from './review-data';
import { APPROVAL_HOLD_SECONDS, type HeldApproval } from './use-approval-hold';
import { useDescribeVariant } from './use-describe-variant';

/** The approvals still held, each with its Undo; `undoRef` goes to the newest one's. */
export function ApprovalHolds({
  held,
  undoRef,
  onUndo,
}: {
  held: readonly HeldApproval<ReviewVariant>[];
  undoRef: Ref<HTMLButtonElement>;
  onUndo: (held: HeldApproval<ReviewVariant>) => void;
}) {
  const t = useTranslations('review');
  const describe = useDescribeVariant();
  return (
    // Fixed at the bottom of the window, so the Undo is in reach wherever the page is scrolled.
    <div role="status" aria-live="polite" className="approval-holds">
      {held.map((one, index) => (
        <p key={one.key} className="approval-hold" data-testid="approval-hold" data-hold-key={one.key}>
          <span>{t('approvingIn', { seconds: APPROVAL_HOLD_SECONDS, what: describe(one.item) })}</span>
          <button
            type="button"
            className="button button-small"
            ref={index === held.length - 1 ? undoRef : undefined}
            onClick={() => onUndo(one)}
          >
            {t('undo')}
            <span className="visually-hidden"> {describe(one.item)}</span>
          </button>
        </p>
      ))}
    </div>
  );
}
