// Work the simulator starts without awaiting (webhook deliveries, output preparation, finishes
// run by a timer): kept in one set so that settle() and stop() can wait for all of it.

export interface BackgroundTasks {
  /** Keeps background work visible to settle() and stop(); `quiet` for expected rejections. */
  track<T>(promise: Promise<T>, quiet?: boolean): Promise<T>;
  /** Resolves once nothing tracked is in flight, including work started while waiting. */
  settle(): Promise<void>;
}

export function createBackgroundTasks(): BackgroundTasks {
  const background = new Set<Promise<unknown>>();

  function track<T>(promise: Promise<T>, quiet = false): Promise<T> {
    const tracked = promise.catch((error: unknown) => {
      if (!quiet) process.stderr.write(`provider-simulator: background task failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      return undefined;
    });
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
    return promise;
  }

  return {
    track,
    async settle() {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
}
