import { groupCommit } from './group-commit';

/** A `run` whose batches finish only when the test says so. */
function controlledRuns<Out>() {
  const batches: { inputs: number[]; finish: (outputs: Out[]) => void; fail: (error: Error) => void }[] = [];
  return {
    run: (inputs: number[]) =>
      new Promise<Out[]>((resolve, reject) => {
        batches.push({ inputs, finish: resolve, fail: reject });
      }),
    batches,
  };
}

/** Lets the promise callbacks queued so far run (a finished batch dispatches the next). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('groupCommit', () => {
  it('sends a call at once while a slot is free, and batches the calls made while all slots are busy', async () => {
    const runs = controlledRuns<string>();
    const record = groupCommit(runs.run, { maxInFlight: 2, maxBatchSize: 100 });
    const results = [1, 2, 3, 4, 5].map((n) => record(n));
    await settled();
    expect(runs.batches.map((batch) => batch.inputs)).toEqual([[1], [2]]);

    runs.batches[1]!.finish(['two']);
    await settled();
    expect(runs.batches.map((batch) => batch.inputs)).toEqual([[1], [2], [3, 4, 5]]);

    runs.batches[0]!.finish(['one']);
    runs.batches[2]!.finish(['three', 'four', 'five']);
    expect(await Promise.all(results)).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it('never puts more than maxBatchSize calls in one batch', async () => {
    const runs = controlledRuns<number>();
    const record = groupCommit(runs.run, { maxInFlight: 1, maxBatchSize: 3 });
    const results = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => record(n));
    for (let i = 0; i < 4; i += 1) {
      await settled();
      const batch = runs.batches[i]!;
      batch.finish(batch.inputs.map((n) => n * 10));
    }
    expect(runs.batches.map((batch) => batch.inputs)).toEqual([[1], [2, 3, 4], [5, 6, 7], [8]]);
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50, 60, 70, 80]);
  });

  it('rejects every call of a failed batch with its error, and goes on with the next batch', async () => {
    const runs = controlledRuns<string>();
    const record = groupCommit(runs.run, { maxInFlight: 1, maxBatchSize: 100 });
    const first = record(1);
    const [second, third] = [record(2), record(3)];
    await settled();
    const failure = new Error('statement failed');
    runs.batches[0]!.fail(failure);
    await expect(first).rejects.toBe(failure);
    await settled();
    runs.batches[1]!.fail(failure);
    await expect(second).rejects.toBe(failure);
    await expect(third).rejects.toBe(failure);

    const fourth = record(4);
    await settled();
    runs.batches[2]!.finish(['four']);
    expect(await fourth).toBe('four');
  });

  it('rejects a batch whose run throws synchronously, or answers the wrong number of outputs', async () => {
    const throwing = groupCommit<number, number>(
      () => {
        throw new Error('bad input');
      },
      { maxInFlight: 1, maxBatchSize: 10 },
    );
    await expect(throwing(1)).rejects.toThrow('bad input');

    const short = groupCommit<number, number>(async (inputs) => inputs.slice(1), { maxInFlight: 1, maxBatchSize: 10 });
    await expect(short(1)).rejects.toThrow('0 outputs for 1 inputs');
    const notAnArray = groupCommit<number, number>(async () => undefined as unknown as number[], { maxInFlight: 1, maxBatchSize: 10 });
    await expect(notAnArray(1)).rejects.toThrow('undefined outputs for 1 inputs');
    // The queue goes on after each of them.
    expect(await Promise.all([short(1), short(2)].map((call) => call.catch(() => 'rejected')))).toEqual(['rejected', 'rejected']);
  });

  it('refuses options that could never send a call', () => {
    expect(() => groupCommit(async () => [], { maxInFlight: 0, maxBatchSize: 10 })).toThrow(RangeError);
    expect(() => groupCommit(async () => [], { maxInFlight: 1, maxBatchSize: 0 })).toThrow(RangeError);
  });
});
