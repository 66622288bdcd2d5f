'use client';

import { useCallback, useEffect, useRef, useState } from 'react';

/** How long an approval waits for an Undo before it is sent. */
export const APPROVAL_HOLD_MS = 5_000;
/** The same, as the messages say it. */
export const APPROVAL_HOLD_SECONDS = APPROVAL_HOLD_MS / 1000;

export interface HeldApproval<T> {
  key: number;
  item: T;
}

/**
 * Approvals held in the page for APPROVAL_HOLD_MS before `commit` sends them
 * (docs/decisions/web.md "Approve with undo"): until then nothing public changes, and `undo`
 * drops one without a request. Leaving the page commits whatever is still held, at once: a link
 * to another page of the app (the queue unmounts), a reload or closed tab (pagehide), and a page
 * hidden behind another tab or app (a phone may discard it without any further event). `commit`
 * must therefore send a request that outlives the page.
 */
export function useApprovalHold<T>(commit: (held: HeldApproval<T>) => void) {
  const [held, setHeld] = useState<readonly HeldApproval<T>[]>([]);
  const timers = useRef(new Map<number, { timer: ReturnType<typeof setTimeout>; held: HeldApproval<T> }>());
  const lastKey = useRef(0);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });

  /** Ends the hold behind `key`; the approval, if it was still held. */
  const end = useCallback((key: number): HeldApproval<T> | undefined => {
    const entry = timers.current.get(key);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    timers.current.delete(key);
    setHeld((old) => old.filter((one) => one.key !== key));
    return entry.held;
  }, []);

  const send = useCallback(
    (key: number) => {
      const ended = end(key);
      if (ended !== undefined) commitRef.current(ended);
    },
    [end],
  );

  const hold = useCallback(
    (item: T) => {
      lastKey.current += 1;
      const next = { key: lastKey.current, item };
      timers.current.set(next.key, { held: next, timer: setTimeout(() => send(next.key), APPROVAL_HOLD_MS) });
      setHeld((old) => [...old, next]);
    },
    [send],
  );

  const undo = useCallback((key: number) => end(key), [end]);

  useEffect(() => {
    const sendAll = () => {
      for (const key of [...timers.current.keys()]) send(key);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') sendAll();
    };
    window.addEventListener('pagehide', sendAll);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', sendAll);
      document.removeEventListener('visibilitychange', onVisibility);
      sendAll();
    };
  }, [send]);

  return { held, hold, undo };
}
