import type { Logger } from './logger';

export interface IntervalLoop {
  /** Runs one pass now (waiting for a pass already in flight first); used by tests and at boot. */
  runNow(): Promise<void>;
  /** Stops scheduling and waits for the pass in flight, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`, never overlapping itself, starting after one interval (or at
 * once with `runAtStart`). A failing pass is logged and the loop goes on: the loops it drives
 * (outbox, repair) are idempotent and catch up on the next pass.
 */
export function startIntervalLoop(options: {
  name: string;
  intervalMs: number;
  logger: Logger;
  runAtStart?: boolean;
  pass: () => Promise<void>;
}): IntervalLoop {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> | null = null;

  const runPass = async (): Promise<void> => {
    while (inFlight !== null) await inFlight;
    // A runNow that was waiting behind the last pass must not start another after stop().
    if (stopped) return;
    inFlight = options.pass().catch((error: unknown) => {
      options.logger.error({ err: error, loop: options.name }, 'loop pass failed; retrying on the next tick');
    });
    try {
      await inFlight;
    } finally {
      inFlight = null;
    }
  };
  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runPass().finally(() => schedule(options.intervalMs));
    }, delayMs);
    // A loop never keeps a process alive by itself: its owner stops it on shutdown.
    timer.unref();
  };
  schedule(options.runAtStart === true ? 0 : options.intervalMs);

  return {
    runNow: runPass,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (inFlight !== null) await inFlight;
    },
  };
}
