/**
 * Bounds how many provider outputs one process holds in memory at once (download buffer, decoded
 * pixels during validation, upload). A 20 MiB output costs roughly 60–70 MB of transient memory
 * while it is checked, so the bound, not AI_STAGING_CONCURRENCY, decides the worker's peak: jobs
 * beyond it wait their turn for a few hundred milliseconds (docs/decisions/staging.md "Output memory").
 */
export interface OutputSlots {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createOutputSlots(size: number): OutputSlots {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async run(work) {
      if (free > 0) free -= 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next !== undefined) next();
        else free += 1;
      }
    },
  };
}
