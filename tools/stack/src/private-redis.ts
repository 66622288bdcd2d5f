/**
 * A redis-server of a test's or tool's own, on a free loopback port, keeping nothing on disk: the
 * one Redis that may be FLUSHALLed or restarted empty without touching anybody else's queues.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './free-port';

export interface PrivateRedis {
  url: string;
  port: number;
  /** Kills the server and starts an empty one on the same port (a restart without persistence). */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}

async function answersPing(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const pong = await probe.connect().then(
    () => probe.ping(),
    () => null,
  );
  probe.disconnect();
  return pong === 'PONG';
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

export async function startPrivateRedis(options: { bootTimeoutMs?: number } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const bootTimeoutMs = options.bootTimeoutMs ?? 20_000;

  const boot = async (): Promise<ChildProcess> => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new Error(`redis-server did not start (is it installed?): ${error.message}`)));
    });
    failed.catch(() => undefined);
    const deadline = Date.now() + bootTimeoutMs;
    for (;;) {
      if (await Promise.race([answersPing(url), failed])) return child;
      if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${url}`);
      await sleep(50);
    }
  };

  let child = await boot();
  return {
    url,
    port,
    async restartEmpty() {
      await stopChild(child);
      child = await boot();
    },
    async stop() {
      await stopChild(child);
    },
  };
}
