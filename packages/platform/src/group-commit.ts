export interface GroupCommitOptions {
  /** Batches running at once; calls beyond them wait and go out together as the next batch. */
  maxInFlight: number;
  /** Most calls in one batch; the rest wait for the next free slot. */
  maxBatchSize: number;
}

interface Pending<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: a call made while a batch slot is free goes out at once, alone; calls made while
 * every slot is busy queue up and go out together in one batch when a slot frees. Under light
 * load nothing waits for company, and under heavy load one statement carries many calls, which is
 * where its cost per call falls (one round trip and one commit for the lot).
 *
 * `run` gets the batch's inputs in call order and must return one output per input, in the same
 * order. If it throws, every call of that batch rejects with its error; deciding whether to retry
 * them one by one is the caller's business, since only the caller knows what is safe to repeat.
 */
export function groupCommit<In, Out>(
  run: (inputs: In[]) => Promise<Out[]>,
  options: GroupCommitOptions,
): (input: In) => Promise<Out> {
  if (!(options.maxInFlight >= 1 && options.maxBatchSize >= 1)) {
    throw new RangeError('group commit: maxInFlight and maxBatchSize must be at least 1');
  }
  const queued: Pending<In, Out>[] = [];
  let inFlight = 0;

  const settle = (batch: Pending<In, Out>[], outputs: Out[]): void => {
    if (!Array.isArray(outputs) || outputs.length !== batch.length) {
      const count = Array.isArray(outputs) ? outputs.length : typeof outputs;
      const error = new Error(`group commit: ${count} outputs for ${batch.length} inputs`);
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => pending.resolve(outputs[index] as Out));
  };

  const dispatch = (): void => {
    while (inFlight < options.maxInFlight && queued.length > 0) {
      const batch = queued.splice(0, options.maxBatchSize);
      inFlight += 1;
      // run() may throw before returning a promise; Promise.resolve().then() turns that into a
      // rejection of this batch instead of an exception in whichever caller happened to dispatch.
      Promise.resolve()
        .then(() => run(batch.map((pending) => pending.input)))
        .then(
          (outputs) => settle(batch, outputs),
          (error: unknown) => {
            for (const pending of batch) pending.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          dispatch();
        });
    }
  };

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      queued.push({ input, resolve, reject });
      dispatch();
    });
}
