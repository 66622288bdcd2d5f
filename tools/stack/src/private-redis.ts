/**
 * A redis-server of a test's or tool's own, on a free loopback port, keeping nothing on disk: the
 * one Redis that may be FLUSHALLed or restarted empty without touching anybody else's queues.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { baseEnv, startChildApp } from './child-app';
import type { ChildApp } from './child-app';
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

/** `logDir`: where the server's output goes (redis.log); without it, nowhere. */
export async function startPrivateRedis(options: { bootTimeoutMs?: number; logDir?: string } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const bootTimeoutMs = options.bootTimeoutMs ?? 20_000;

  const boot = async (): Promise<ChildApp> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = startChildApp({ name: 'redis', command: 'redis-server', args, env: baseEnv(), cwd: options.logDir, logDir: options.logDir, appendLog: true });
    const deadline = Date.now() + bootTimeoutMs;
    for (;;) {
      if (await answersPing(url)) return child;
      if (!child.isRunning()) throw new Error(`redis-server on port ${port} ended before it answered (is it installed?)`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${url}`);
      await sleep(50);
    }
  };

  let child = await boot();
  return {
    url,
    port,
    async restartEmpty() {
      await child.kill();
      child = await boot();
    },
    async stop() {
      await child.kill();
    },
  };
}
