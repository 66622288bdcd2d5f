// An app of a local stack (api, worker, web, simulator, redis-server) as a child process of its
// own, ended by the id of the process started here, never by name. Every stack launches through
// this one module so that a stop, a kill and a health wait mean the same everywhere; what callers
// choose on purpose (where the output goes, a process group, how long a stop may take) are options.
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildAppOptions {
  name: string;
  /** Default: this Node binary, so `args` start with the entry (`--import tsx src/main.ts`). */
  command?: string;
  args: string[];
  cwd?: string;
  /** The whole environment; unset values are left out. */
  env: Record<string, string | undefined>;
  /** Keeps stdout and stderr in memory for output() and for the messages of failed waits. */
  capture?: boolean;
  /** Writes stdout and stderr to <logDir>/<name>.log, and the exit at its end. */
  logDir?: string;
  /** Adds to that file (every run of an app restarted under one name) instead of starting it afresh. */
  appendLog?: boolean;
  /** Shows the output on this process's terminal: every line prefixed `[name]`, or stderr as it is. */
  terminal?: 'prefixed' | 'stderr';
  /** Leads a process group of its own, so stop and kill also end what it spawned (tsx, next). */
  group?: boolean;
}

export interface ChildApp {
  name: string;
  process: ChildProcessByStdio<null, Readable, Readable>;
  startedAtMs: number;
  /** Resolves at the exit; a command that could not start counts as code -1. */
  exited: Promise<Exit>;
  isRunning(): boolean;
  /** What `capture` kept of one stream, or of both as they came. */
  output(stream?: 'stdout' | 'stderr'): string;
  /** Calls `listener` with every complete stdout line from now on. */
  onLine(listener: (line: string) => void): void;
  /**
   * The value `read` makes of the first stdout line from now on it accepts; rejects when the app
   * exits first or `timeoutMs` passes.
   */
  waitForLine<T>(read: (line: string) => T | undefined, options?: { timeoutMs?: number; what?: string }): Promise<T>;
  /**
   * Polls `url` until it answers 2xx and resolves with that answer; rejects when the app exits
   * first or `timeoutMs` passes. A URL the app has yet to announce (a promise) is polled once known.
   */
  waitForHealth(url: string | Promise<string>, options?: { timeoutMs?: number; intervalMs?: number }): Promise<Response>;
  /** SIGKILL, as a crash ends a process; resolves at the exit. */
  kill(): Promise<Exit>;
  /** SIGTERM, then SIGKILL once `graceMs` passed (without it, waits as long as the app takes). */
  stop(graceMs?: number): Promise<Exit>;
}

export type ChildAppLauncher = (options: ChildAppOptions) => ChildApp;

/** PATH and HOME, which every app needs besides the environment its stack gives it. */
export function baseEnv(): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME };
}

function definedEntries(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function logFileOf(options: ChildAppOptions): string {
  return path.join(options.logDir ?? '.', `${options.name}.log`);
}

function prefixed(name: string, chunk: Buffer): string {
  return chunk
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((line) => `[${name}] ${line}`)
    .join('\n');
}

/** Sends every chunk where `options` says, and complete stdout lines to the listeners. */
function routeOutput(child: ChildApp['process'], options: ChildAppOptions, chunks: { stream: 'stdout' | 'stderr'; text: string }[], lineListeners: Set<(line: string) => void>): void {
  const log = options.logDir === undefined ? null : createWriteStream(logFileOf(options), { flags: options.appendLog === true ? 'a' : 'w' });
  const route = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    log?.write(chunk);
    if (options.capture === true) chunks.push({ stream, text: chunk.toString('utf8') });
    if (options.terminal === 'prefixed') (stream === 'stdout' ? console.log : console.error)(prefixed(options.name, chunk));
    if (options.terminal === 'stderr' && stream === 'stderr') process.stderr.write(chunk);
  };
  let pending = '';
  child.stdout.on('data', route('stdout'));
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) for (const listener of lineListeners) listener(line);
  });
  child.stderr.on('data', route('stderr'));
  // close, not exit: output still in the pipes at the exit is written first.
  child.once('close', (code, signal) => log?.end(`\n[${options.name}] exited (${signal ?? code})\n`));
}

/**
 * Polls `url` until it answers 2xx and resolves with that answer; rejects with what `gone` returns
 * once the server is gone, or when `timeoutMs` passes. A URL not yet known (a promise) is polled
 * once it is.
 */
export async function waitForUrl(
  url: string | Promise<string>,
  options: { name: string; timeoutMs?: number; intervalMs?: number; hint?: () => string; gone?: (target: string) => Error | null },
): Promise<Response> {
  const { timeoutMs = Number.MAX_SAFE_INTEGER, intervalMs = 200 } = options;
  const deadline = Date.now() + timeoutMs;
  let known: string | null = null;
  void Promise.resolve(url).then(
    (resolved) => (known = resolved),
    () => undefined,
  );
  const target = () => known ?? 'its announced URL';
  while (Date.now() < deadline) {
    const gone = options.gone?.(target());
    if (gone !== undefined && gone !== null) throw gone;
    // A refused or reset connection is a server still booting: ask again.
    const response = known === null ? undefined : await fetch(known).catch(() => undefined);
    if (response?.ok === true) return response;
    await sleep(intervalMs);
  }
  throw new Error(`${options.name} did not answer ${target()} within ${timeoutMs / 1000} s${options.hint?.() ?? ''}`);
}

export function startChildApp(options: ChildAppOptions): ChildApp {
  // detached: the child leads its own process group, which a negative pid signals as a whole.
  const child = spawn(options.command ?? process.execPath, options.args, {
    cwd: options.cwd,
    env: definedEntries(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  });
  const chunks: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  const lineListeners = new Set<(line: string) => void>();
  routeOutput(child, options, chunks, lineListeners);
  let couldNotStart = false;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A command that cannot start (a missing binary) never emits exit.
    child.on('error', () => {
      couldNotStart = child.pid === undefined;
      if (couldNotStart) resolve({ code: -1, signal: null });
    });
  });
  const isRunning = () => !couldNotStart && child.exitCode === null && child.signalCode === null;
  const output = (stream?: 'stdout' | 'stderr') =>
    chunks
      .filter((chunk) => stream === undefined || chunk.stream === stream)
      .map((chunk) => chunk.text)
      .join('');
  const whereToLook = () => (options.logDir !== undefined ? `; see ${logFileOf(options)}` : options.capture === true ? `: ${output().slice(-2000)}` : '');
  const ended = (before: string) => new Error(`${options.name} exited (${child.signalCode ?? child.exitCode}) before ${before}${whereToLook()}`);
  const signal = (name: NodeJS.Signals) => {
    if (!isRunning() || child.pid === undefined) return;
    if (options.group !== true) child.kill(name);
    else
      try {
        process.kill(-child.pid, name);
      } catch {
        // The group ended between the check and the signal.
      }
  };
  return {
    name: options.name,
    process: child,
    startedAtMs: Date.now(),
    exited,
    isRunning,
    output,
    onLine: (listener) => lineListeners.add(listener),
    waitForLine(read, { timeoutMs, what = 'the line it was waited for' } = {}) {
      return new Promise((resolve, reject) => {
        const listener = (line: string) => {
          const value = read(line);
          if (value === undefined) return;
          lineListeners.delete(listener);
          resolve(value);
        };
        lineListeners.add(listener);
        void exited.then(() => reject(ended(what)));
        // A wait nobody needs any more (a race's losing side) must not keep this process alive.
        if (timeoutMs !== undefined) setTimeout(() => reject(new Error(`${options.name} wrote no ${what} within ${timeoutMs / 1000} s${whereToLook()}`)), timeoutMs).unref();
      });
    },
    waitForHealth: (url, waitOptions = {}) =>
      waitForUrl(url, { ...waitOptions, name: options.name, hint: whereToLook, gone: (target) => (isRunning() ? null : ended(`${target} answered`)) }),
    async kill() {
      signal('SIGKILL');
      return exited;
    },
    async stop(graceMs) {
      signal('SIGTERM');
      if (graceMs === undefined) return exited;
      const settled = await Promise.race([exited, sleep(graceMs, null, { ref: false })]);
      if (settled !== null) return settled;
      signal('SIGKILL');
      return exited;
    },
  };
}
