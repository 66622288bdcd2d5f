import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { supervise } from './supervise';
import type { SupervisedProcess } from './supervise';

/** A child that exits at once with code 1, or one that runs until it is signalled. */
function crashing() {
  return spawn(process.execPath, ['-e', 'process.exit(1)'], { stdio: 'ignore' });
}
function longRunning() {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
}

/** Collects the supervisor's lines; `next()` resolves with the next one. */
function lineLog() {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  return {
    lines,
    log: (line: string) => {
      lines.push(line);
      waiting.shift()?.(line);
    },
    next: (): Promise<string> => {
      const seen = lines.length;
      return new Promise((resolve) => {
        if (lines.length > seen) resolve(lines[seen]!);
        else waiting.push(resolve);
      });
    },
  };
}

let supervised: SupervisedProcess | undefined;
afterEach(async () => {
  jest.useRealTimers();
  await supervised?.stop();
});

describe('supervise', () => {
  it('restarts a child that exits, and says so', async () => {
    const output = lineLog();
    let starts = 0;
    const third = new Promise<void>((resolve) => {
      supervised = supervise({
        name: 'api',
        start: () => {
          starts += 1;
          if (starts === 3) resolve();
          return starts < 3 ? crashing() : longRunning();
        },
        log: output.log,
        backoff: { initialMs: 10, maxMs: 1_000, stableMs: 60_000 },
      });
    });
    await third;
    expect(output.lines).toEqual(['[api] exited (code 1); restarting in 10 ms', '[api] exited (code 1); restarting in 20 ms']);
  });

  it('doubles the delay up to the cap, and starts again from the first delay after a stable run', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const output = lineLog();
    const plan = [crashing, crashing, crashing, crashing, longRunning];
    let current: ChildProcess | undefined;
    supervised = supervise({
      name: 'worker',
      start: () => (current = (plan.shift() ?? crashing)()),
      log: output.log,
      backoff: { initialMs: 1_000, maxMs: 4_000, stableMs: 10_000 },
    });
    for (const delay of ['1 s', '2 s', '4 s', '4 s']) {
      const line = await output.next();
      expect(line).toBe(`[worker] exited (code 1); restarting in ${delay}`);
      await jest.advanceTimersByTimeAsync(4_000);
    }
    // The fifth child stays up past `stableMs`, then dies.
    jest.setSystemTime(Date.now() + 10_000);
    const next = output.next();
    current?.kill('SIGKILL');
    expect(await next).toBe('[worker] exited (SIGKILL); restarting in 1 s');
  });

  it('stops restarting once stopped: the running child is ended and not started again', async () => {
    const output = lineLog();
    let starts = 0;
    supervised = supervise({
      name: 'web',
      start: () => {
        starts += 1;
        return longRunning();
      },
      log: output.log,
    });
    await supervised.stop();
    expect(starts).toBe(1);
    expect(output.lines).toEqual([]);
  });

  it('a restart that is waiting for its delay is cancelled by stop', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const output = lineLog();
    let starts = 0;
    supervised = supervise({
      name: 'api',
      start: () => {
        starts += 1;
        return crashing();
      },
      log: output.log,
    });
    expect(await output.next()).toBe('[api] exited (code 1); restarting in 1 s');
    await supervised.stop();
    await jest.runAllTimersAsync();
    expect(starts).toBe(1);
  });
});
