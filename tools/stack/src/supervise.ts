// Keeps one service process of `npm start` running: a child that exits while the stack is not
// stopping is started again, after a delay that doubles with each quick failure.
import type { ChildProcess } from 'node:child_process';

export interface RestartBackoff {
  /** Delay before the first restart. */
  initialMs: number;
  /** Longest delay between restarts. */
  maxMs: number;
  /** A child that ran at least this long failed afresh: its restart waits `initialMs` again. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: RestartBackoff = { initialMs: 1_000, maxMs: 30_000, stableMs: 60_000 };

export interface SupervisedProcess {
  /** Ends restarting, sends SIGTERM to the running child and resolves once none runs. */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  name: string;
  /** Spawns a fresh child; called again for every restart. */
  start: () => ChildProcess;
  log: (line: string) => void;
  backoff?: RestartBackoff;
}

function formatDelay(ms: number): string {
  return ms >= 1_000 ? `${ms / 1_000} s` : `${ms} ms`;
}

export function supervise(options: SuperviseOptions): SupervisedProcess {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let delayMs = backoff.initialMs;
  let child: ChildProcess | null = null;
  let restartTimer: NodeJS.Timeout | null = null;
  let stopped: Promise<void> | null = null;
  let onStopped: (() => void) | null = null;

  const run = () => {
    restartTimer = null;
    const startedAt = Date.now();
    const current = options.start();
    child = current;
    // Without a listener a spawn failure would throw in the stack process itself.
    current.on('error', (error) => options.log(`[${options.name}] could not start: ${error.message}`));
    current.once('exit', (code, signal) => {
      child = null;
      if (stopped !== null) {
        onStopped?.();
        return;
      }
      if (Date.now() - startedAt >= backoff.stableMs) delayMs = backoff.initialMs;
      options.log(`[${options.name}] exited (${signal ?? `code ${code}`}); restarting in ${formatDelay(delayMs)}`);
      restartTimer = setTimeout(run, delayMs);
      delayMs = Math.min(delayMs * 2, backoff.maxMs);
    });
  };
  run();

  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (restartTimer !== null) clearTimeout(restartTimer);
        if (child === null) {
          resolve();
          return;
        }
        onStopped = resolve;
        child.kill('SIGTERM');
      });
      return stopped;
    },
  };
}
