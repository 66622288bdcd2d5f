import { startIntervalLoop } from './interval-loop';
import { memoryLogger } from './testing/memory-logger';

// The interval is far beyond the test, so only runNow starts passes and each test controls when a
// pass ends.
const NEVER = 1_000_000_000;

function controlledPasses() {
  const finishers: (() => void)[] = [];
  let running = 0;
  let maxRunning = 0;
  return {
    pass: () =>
      new Promise<void>((resolve) => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        finishers.push(() => {
          running -= 1;
          resolve();
        });
      }),
    started: () => finishers.length,
    finish: (index: number) => finishers[index]?.(),
    maxRunning: () => maxRunning,
  };
}

describe('startIntervalLoop', () => {
  it('never runs two passes at once: runNow waits for the pass in flight', async () => {
    const passes = controlledPasses();
    const loop = startIntervalLoop({ name: 'test', intervalMs: NEVER, logger: memoryLogger('test').logger, pass: passes.pass });
    const first = loop.runNow();
    const second = loop.runNow();
    expect(passes.started()).toBe(1);
    passes.finish(0);
    await first;
    await new Promise(setImmediate);
    expect(passes.started()).toBe(2);
    passes.finish(1);
    await second;
    expect(passes.maxRunning()).toBe(1);
    await loop.stop();
  });

  it('starts nothing after stop, not even a runNow that was waiting behind the last pass', async () => {
    const passes = controlledPasses();
    const loop = startIntervalLoop({ name: 'test', intervalMs: NEVER, logger: memoryLogger('test').logger, pass: passes.pass });
    const first = loop.runNow();
    const waiting = loop.runNow();
    const stopped = loop.stop();
    passes.finish(0);
    await Promise.all([first, waiting, stopped]);
    expect(passes.started()).toBe(1);
  });

  it('logs a failed pass and keeps going', async () => {
    const log = memoryLogger('test');
    let calls = 0;
    const loop = startIntervalLoop({
      name: 'flaky',
      intervalMs: NEVER,
      logger: log.logger,
      pass: async () => {
        calls += 1;
        if (calls === 1) throw new Error('store down');
      },
    });
    await loop.runNow();
    await loop.runNow();
    expect(calls).toBe(2);
    expect(log.lines().filter((line) => line['loop'] === 'flaky' && line['msg'] === 'loop pass failed; retrying on the next tick')).toHaveLength(1);
    await loop.stop();
  });
});
