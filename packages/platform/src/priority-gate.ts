/**
 * Lets latency-sensitive work in one process go first on its event loop. Two consumers that share
 * a process share one thread: while a backlog of background work keeps the loop busy, every await
 * of the urgent work queues behind whatever callbacks the background work has ready. Background
 * work that asks for its turn before each step instead holds back while urgent work is in flight,
 * at most `maxWaitMs` per turn, so a steady stream of urgent work slows it down but never starves
 * it. Steps already running are not interrupted; only new ones wait.
 */
export interface PriorityGate {
  /** Runs urgent work; background turns asked for meanwhile wait until it (and any other) ends. */
  urgent<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves at once when no urgent work is in flight, else when none is or `maxWaitMs` passed. */
  backgroundTurn(): Promise<void>;
  /** Urgent work in flight now (for tests and logs). */
  urgentInFlight(): number;
  /** Background turns waiting now (for tests and logs). */
  backgroundWaiting(): number;
}

export function createPriorityGate(options: { maxWaitMs: number }): PriorityGate {
  if (!(options.maxWaitMs >= 0)) throw new RangeError('maxWaitMs must be 0 or more');
  let inFlight = 0;
  let waiting = 0;
  let idle: { promise: Promise<void>; resolve: () => void } | null = null;

  const whenIdle = (): Promise<void> => {
    if (idle === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      idle = { promise, resolve };
    }
    return idle.promise;
  };

  return {
    async urgent(work) {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        if (inFlight === 0 && idle !== null) {
          idle.resolve();
          idle = null;
        }
      }
    },
    async backgroundTurn() {
      if (inFlight === 0 || options.maxWaitMs === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const capped = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.maxWaitMs)));
      waiting += 1;
      try {
        await Promise.race([whenIdle(), capped]);
      } finally {
        waiting -= 1;
        clearTimeout(timer);
      }
    },
    urgentInFlight: () => inFlight,
    backgroundWaiting: () => waiting,
  };
}
