'use client';

import { useEffect, useRef } from 'react';

/** Typing in a field or working in a dialog must never trigger a shortcut. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('dialog') !== null;
}

/**
 * Single-key shortcuts on the whole window, off while typing, in a dialog, with a modifier held or
 * while `paused`. `onKey` gets the lower-case key and says whether it used it.
 */
export function useReviewShortcuts(paused: boolean, onKey: (key: string) => boolean): void {
  const shortcut = useRef<(event: KeyboardEvent) => void>(() => undefined);
  shortcut.current = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target) || paused) return;
    if (!onKey(event.key.toLowerCase())) return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => shortcut.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
