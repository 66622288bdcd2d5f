/**
 * Entry point of the worker. Signal handlers are installed before anything else loads, because
 * loading the modules takes seconds (under tsx longer still) and Node's default for SIGTERM is to
 * die at once: a SIGTERM at any moment, boot included, must drain and exit 0. The first signal is
 * latched and handed to the process once it is ready to stop gracefully.
 */
let received: string | null = null;
let handler: ((signal: string) => void) | null = null;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (received !== null) return;
    received = signal;
    handler?.(signal);
  });
}

const { runWorkerProcess } = await import('./worker-process');
await runWorkerProcess({
  whenSignaled(next) {
    handler = next;
    if (received !== null) next(received);
  },
});
