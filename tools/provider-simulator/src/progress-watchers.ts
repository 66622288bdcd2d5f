// Callers waiting on a prediction's progress (Prefer: wait, webhook_before_response): each waits
// for a condition that is re-checked on every change, so no status move can slip past it.

export interface ProgressWatchers {
  /** Re-checks every waiting condition. */
  changed(): void;
  /** Resolves once `done()` holds, the current signal is aborted (reset), or after `timeoutMs`. */
  until(done: () => boolean, timeoutMs?: number | null): Promise<void>;
}

/** `currentSignal` is read when a wait begins: a reset replaces it, releasing only earlier waits. */
export function createProgressWatchers(currentSignal: () => AbortSignal): ProgressWatchers {
  const watchers = new Set<() => void>();

  function changed(): void {
    for (const watcher of [...watchers]) watcher();
  }

  function until(done: () => boolean, timeoutMs: number | null = null): Promise<void> {
    return new Promise((resolve) => {
      const signal = currentSignal();
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        if (!done() && !signal.aborted) return;
        watchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      if (timeoutMs !== null) {
        timer = setTimeout(() => {
          watchers.delete(check);
          resolve();
        }, timeoutMs);
      }
      watchers.add(check);
      check();
    });
  }

  return { changed, until };
}
