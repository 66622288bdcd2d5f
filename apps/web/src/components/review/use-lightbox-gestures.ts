'use client';

import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { swipeStep } from '@/client/swipe';

/**
 * Previous and next in the lightbox by the arrow keys and by a swipe, while `enabled`: at 1:1 the
 * arrows and drags scroll the photo instead. A key that steps is taken from the page.
 */
export function useLightboxGestures(enabled: boolean, onPrevious: (() => void) | undefined, onNext: (() => void) | undefined) {
  const dragFrom = useRef<{ x: number; y: number } | null>(null);
  const step = (direction: -1 | 0 | 1) => (direction === 1 ? onNext : direction === -1 ? onPrevious : undefined)?.();
  return {
    onKeyDown: (event: KeyboardEvent<HTMLDialogElement>) => {
      if (!enabled) return;
      if (event.key === 'ArrowRight') step(1);
      else if (event.key === 'ArrowLeft') step(-1);
      else return;
      event.preventDefault();
    },
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      dragFrom.current = enabled ? { x: event.clientX, y: event.clientY } : null;
    },
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => {
      const from = dragFrom.current;
      dragFrom.current = null;
      if (from !== null) step(swipeStep(event.clientX - from.x, event.clientY - from.y));
    },
    onPointerCancel: () => {
      dragFrom.current = null;
    },
  };
}
