/**
 * Runs the real entry point (`tsx src/main.ts`) as a child process, so SIGKILL and SIGTERM are
 * real signals and a blocked event loop blocks only that worker.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@staging/stack/free-port';
import { FAST_TIMINGS, HANG_GUARD_MS, waitUntil } from './test-stack';

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

export async function spawnWorker(options: SpawnWorkerOptions): Promise<WorkerProcess> {
  const port = await freePort();
  const testArgs =
    options.settings === null
      ? []
      : [
          `--test-timings=${JSON.stringify({
            ...FAST_TIMINGS,
            lockDurationMs: 2_000,
            stalledIntervalMs: 1_000,
            repairIntervalMs: 1_000,
            shutdownGraceMs: 8_000,
            ...options.settings,
          })}`,
        ];
  // `--import tsx` keeps the worker the spawned process itself (the tsx CLI would add a parent
  // process that turns a SIGKILL of the worker into exit code 137 of its own).
  const child = spawn(
    process.execPath,
    [...(options.entry ?? ['--import', 'tsx', 'src/main.ts']), ...testArgs, ...(options.args ?? [])],
    {
      cwd: workerDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    port,
    exited,
    stderr: () => err,
    lines: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    ready(timeoutMs = HANG_GUARD_MS) {
      return waitUntil(
        async () => {
          if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}: ${err}`);
          // A probe that meets a reset connection (a keep-alive socket the server closed as it was
          // reused, on a loaded machine) asks again, as an orchestrator's probe would.
          const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
          const body = (await response?.json().catch(() => undefined)) as Record<string, unknown> | undefined;
          return response?.ok === true ? body : undefined;
        },
        { timeoutMs, intervalMs: 100, what: 'the worker to answer /readyz' },
      );
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
