'use client';

import type { useIdSelection } from '@/client/use-id-selection';
import type { ReviewVariant } from './review-data';
import { ReviewCard } from './review-card';
import type { useReviewCursor } from './use-review-cursor';

/** The variants waiting for review as cards: the current one marked, each with its checkbox and actions. */
export function PendingList({
  items,
  describedBy,
  cursor,
  selection,
  busy,
  onApprove,
  onReject,
}: {
  items: readonly ReviewVariant[];
  /** The id of the text that explains the keyboard shortcuts. */
  describedBy: string;
  cursor: Pick<ReturnType<typeof useReviewCursor>, 'current' | 'reveal' | 'focused'>;
  selection: Pick<ReturnType<typeof useIdSelection>, 'selected' | 'toggle'>;
  busy: boolean;
  onApprove: (item: ReviewVariant) => void;
  onReject: (item: ReviewVariant) => void;
}) {
  return (
    <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-describedby={describedBy}>
      {items.map((item) => (
        <ReviewCard
          key={item.variant.id}
          item={item}
          current={item === cursor.current}
          reveal={item === cursor.current ? cursor.reveal : undefined}
          selected={selection.selected.has(item.variant.id)}
          busy={busy}
          onSelect={(on) => selection.toggle(item.variant.id, on)}
          onFocus={() => cursor.focused(item.variant.id)}
          onApprove={() => onApprove(item)}
          onReject={() => onReject(item)}
        />
      ))}
    </ul>
  );
}
