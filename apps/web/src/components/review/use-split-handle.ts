'use client';

import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

const clamp = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

// Arrow keys move the handle by 1 (10 with Shift), Page keys by 10, Home/End to the ends.
const KEY_STEPS: Record<string, (split: number, big: boolean) => number> = {
  ArrowLeft: (s, big) => s - (big ? 10 : 1),
  ArrowDown: (s, big) => s - (big ? 10 : 1),
  ArrowRight: (s, big) => s + (big ? 10 : 1),
  ArrowUp: (s, big) => s + (big ? 10 : 1),
  PageDown: (s) => s - 10,
  PageUp: (s) => s + 10,
  Home: () => 0,
  End: () => 100,
};

/**
 * Where the before/after divider stands (0 to 100, % from the left) and how it moves: dragged
 * across the stage (mouse, pen, touch) or stepped with the keys. Kept by the comparison rather
 * than the slider, so switching to side by side and back leaves it where it was.
 */
export function useSplitHandle() {
  const [split, setSplit] = useState(50);
  const stageRef = useRef<HTMLDivElement>(null);
  const moveTo = (clientX: number) => {
    const rect = stageRef.current?.getBoundingClientRect();
    if (rect === undefined || rect.width === 0) return;
    setSplit(clamp(((clientX - rect.left) / rect.width) * 100));
  };
  return {
    split,
    stageRef,
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      if (event.button !== 0) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      moveTo(event.clientX);
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      if (event.currentTarget.hasPointerCapture(event.pointerId)) moveTo(event.clientX);
    },
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      const step = KEY_STEPS[event.key];
      if (step === undefined) return;
      event.preventDefault();
      // Keys other panels use (a, r, j, k) are untouched; arrows stay with the handle.
      event.stopPropagation();
      setSplit((s) => clamp(step(s, event.shiftKey)));
    },
  };
}

export type SplitHandle = ReturnType<typeof useSplitHandle>;
