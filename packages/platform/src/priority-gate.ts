/**
 * Lets latency-sensitive work in one process go first on its event loop. Two consumers that share
 * a process share one thread: while a backlog of background work keeps the loop busy, every await
 * of the urgent work queues behind whatever callbacks the background work has ready. Background
 * work that asks for its turn before each step instead holds back while urgent work is in flight,
 * at most `maxWaitMs` per turn, so a steady stream of urgent work slows it down but never starves
 * it. Steps already running are not interrupted; only new ones wait.
 */
export interface PriorityGate {
  /**
   * Runs urgent work; background turns asked for meanwhile wait until no urgent work is left in
   * flight or their cap has passed.
   */
  urgent<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves at once when no urgent work is in flight, else when none is or `maxWaitMs` passed. */
  backgroundTurn(): Promise<void>;
  /** Urgent work in flight now (for tests and logs). */
  urgentInFlight(): number;
  /** Background turns waiting now (for tests and logs). */
  backgroundWaiting(): number;
}

/** setTimeout's largest delay; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createPriorityGate(options: { maxWaitMs: number }): PriorityGate {
  const { maxWaitMs } = options;
  if (!Number.isInteger(maxWaitMs) || maxWaitMs < 0 || maxWaitMs > MAX_TIMER_MS) {
    throw new RangeError(`maxWaitMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  let inFlight = 0;
  // Each waiting turn's release, removed when it goes: a description that never ends must not
  // leave one callback behind per staging step.
  const waiting = new Set<() => void>();

  return {
    async urgent(work) {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        if (inFlight === 0) for (const release of [...waiting]) release();
      }
    },
    async backgroundTurn() {
      if (inFlight === 0 || maxWaitMs === 0) return;
      await new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          waiting.delete(release);
          resolve();
        };
        const timer = setTimeout(release, maxWaitMs);
        waiting.add(release);
      });
    },
    urgentInFlight: () => inFlight,
    backgroundWaiting: () => waiting.size,
  };
}
