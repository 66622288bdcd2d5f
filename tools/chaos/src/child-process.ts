// Child processes of a chaos run: each writes to its own log file and can be SIGKILLed or stopped
// by the id of the process started here (never by name).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  atMs: number;
}

export interface RunningChild {
  name: string;
  process: ChildProcess;
  startedAtMs: number;
  logFile: string;
  exited: Promise<Exit>;
  isRunning(): boolean;
  /** SIGKILL; resolves at the exit. */
  kill(): Promise<Exit>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves at the exit. */
  stop(graceMs: number): Promise<Exit>;
}

export function startChild(options: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logDir: string;
  /** Called with each complete stdout line (e.g. to read a startup line). */
  onLine?: (line: string) => void;
}): RunningChild {
  const logFile = path.join(options.logDir, `${options.name}.log`);
  const log: WriteStream = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const startedAtMs = Date.now();
  const { stdout, stderr } = child;
  // Both are pipes as spawned above; Node types them nullable for other stdio settings.
  if (stdout === null || stderr === null) throw new Error(`${options.name} was spawned without its output pipes`);
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    log.write(chunk);
    if (options.onLine === undefined) return;
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  });
  stderr.on('data', (chunk: Buffer) => log.write(chunk));
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      const exit = { code, signal, atMs: Date.now() };
      log.end(`\n[chaos] ${options.name} exited (${signal ?? code})\n`);
      resolve(exit);
    });
    // A command that cannot start (missing binary) never emits exit; report it as one.
    child.once('error', () => resolve({ code: -1, signal: null, atMs: Date.now() }));
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const signal = (name: NodeJS.Signals) => {
    if (isRunning()) child.kill(name);
  };
  return {
    name: options.name,
    process: child,
    startedAtMs,
    logFile,
    exited,
    isRunning,
    async kill() {
      signal('SIGKILL');
      return exited;
    },
    async stop(graceMs) {
      signal('SIGTERM');
      const settled = await Promise.race([exited, sleep(graceMs, null, { ref: false })]);
      if (settled !== null) return settled;
      signal('SIGKILL');
      return exited;
    },
  };
}

/**
 * Polls `url` until it answers 2xx, the child exits, or `timeoutMs` passes; a URL the child has
 * yet to announce (a promise) is polled once it is known.
 */
export async function waitForHttpOk(child: RunningChild, url: string | Promise<string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let known: string | null = null;
  void Promise.resolve(url).then((resolved) => (known = resolved));
  const target = () => known ?? 'its announced URL';
  while (Date.now() < deadline) {
    if (!child.isRunning()) throw new Error(`${child.name} exited before ${target()} answered; see ${child.logFile}`);
    const ok =
      known !== null &&
      (await fetch(known).then(
        (response) => response.ok,
        () => false,
      ));
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${child.name} did not answer ${target()} within ${timeoutMs / 1000} s; see ${child.logFile}`);
}
