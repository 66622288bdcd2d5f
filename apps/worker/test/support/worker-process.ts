/**
 * Runs the real entry point (`tsx src/main.ts`) as a child process, so SIGKILL and SIGTERM are
 * real signals and a blocked event loop blocks only that worker.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseEnv, startChildApp } from '@staging/stack/child-app';
import { freePort } from '@staging/stack/free-port';
import { FAST_TIMINGS, HANG_GUARD_MS } from './test-stack';

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerProcess {
  child: ChildProcess;
  port: number;
  /** Parsed JSON log lines written so far. */
  lines(): Record<string, unknown>[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with /readyz's body once it answers 200 (database, Redis and consumers up). */
  ready(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGKILL if still running (cleanup). */
  kill(): Promise<void>;
}

export interface SpawnWorkerOptions {
  env: Record<string, string>;
  args?: string[];
  /** Overrides of FAST_TIMINGS; `null` runs the worker with its production timings. */
  settings?: Record<string, number> | null;
  /** Node arguments that start the worker; default the sources through tsx, e.g. ['dist/main.js'] for the bundle. */
  entry?: string[];
}

function testTimingsArgs(settings: SpawnWorkerOptions['settings']): string[] {
  if (settings === null) return [];
  const timings = { ...FAST_TIMINGS, lockDurationMs: 2_000, stalledIntervalMs: 1_000, repairIntervalMs: 1_000, shutdownGraceMs: 8_000, ...settings };
  return [`--test-timings=${JSON.stringify(timings)}`];
}

export async function spawnWorker(options: SpawnWorkerOptions): Promise<WorkerProcess> {
  const port = await freePort();
  const worker = startChildApp({
    name: 'worker',
    // `--import tsx` keeps the worker the spawned process itself (the tsx CLI would add a parent
    // process that turns a SIGKILL of the worker into exit code 137 of its own).
    args: [...(options.entry ?? ['--import', 'tsx', 'src/main.ts']), ...testTimingsArgs(options.settings), ...(options.args ?? [])],
    cwd: workerDir,
    env: { ...baseEnv(), ...options.env, PORT: String(port) },
    capture: true,
  });
  return {
    child: worker.process,
    port,
    exited: worker.exited,
    stderr: () => worker.output('stderr'),
    lines: () =>
      worker
        .output('stdout')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async ready(timeoutMs = HANG_GUARD_MS) {
      const response = await worker.waitForHealth(`http://127.0.0.1:${port}/readyz`, { timeoutMs, intervalMs: 100 });
      return (await response.json()) as Record<string, unknown>;
    },
    async kill() {
      await worker.kill();
    },
  };
}
