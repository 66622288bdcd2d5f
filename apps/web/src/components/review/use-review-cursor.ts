'use client';

import { useState } from 'react';
import type { ReviewVariant } from './review-data';

/**
 * The current item, and whether to scroll it into view. A shortcut or a review moves it off
 * screen, so it is revealed; J/K and an undo move the keyboard focus to it too, so Tab goes on
 * from the card shown. Focus (a click or Tab into a card) makes a card current without
 * scrolling: the browser already shows what takes focus, and a scroll between the mouse press
 * and its release moves the card from under the pointer, which loses the click.
 */
export function useReviewCursor(pending: readonly ReviewVariant[], focusImageId: string | undefined) {
  const [cursor, setCursor] = useState<{ id: string | undefined; reveal: { focus: boolean } | undefined }>({ id: focusImageId, reveal: undefined });
  const moveTo = (imageId: string | undefined, focus = false) => setCursor({ id: imageId, reveal: { focus } });
  const currentIndex = Math.max(0, pending.findIndex((item) => item.variant.id === cursor.id));
  return {
    current: pending[currentIndex],
    /** For the current card: bring it into view, with or without the focus. */
    reveal: cursor.reveal,
    moveTo,
    /** The item `by` places on, kept inside the queue, focused. */
    moveBy: (by: number) => moveTo(pending[Math.min(pending.length - 1, Math.max(0, currentIndex + by))]?.variant.id, true),
    /** A card that took the focus becomes current where it is. */
    focused: (imageId: string) => setCursor((old) => (old.id === imageId ? old : { id: imageId, reveal: undefined })),
    /** The current card takes the focus (the focused control went away). */
    focusCurrent: () => setCursor((old) => ({ id: old.id, reveal: { focus: true } })),
    /** The next item to review once `ids` leave the queue. */
    advancePast: (ids: ReadonlySet<string>) => {
      const rest = pending.filter((item, index) => index >= currentIndex && !ids.has(item.variant.id));
      const fallback = pending.filter((item) => !ids.has(item.variant.id));
      moveTo((rest[0] ?? fallback[fallback.length - 1])?.variant.id);
    },
  };
}
