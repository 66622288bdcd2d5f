// What the HTTP benchmarks share besides the load itself: their command-line options, a database
// and queue-store namespace of their own, and the api started as production runs it.
import { parseArgs } from 'node:util';
import { apiTestEnv } from '@staging/config/test-env';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createRedis } from '@staging/platform/queues';
import { deleteKeysMatching } from '@staging/platform/redis-keys';
import type { ChildApp, ChildAppLauncher } from '@staging/stack/child-app';
import { freePort } from '@staging/stack/free-port';
import { stackBuilder, uniqueQueueSuffix } from '@staging/stack/stack-builder';
import { root, startProcess, waitForPort } from './http-load';
import type { Server } from './http-load';
import { present } from './present';

/** `--seconds 4 --rounds 3 --warmup 2 --concurrency 32`, as loadInTurns takes them. */
export function parseLoadArgs(): { seconds: number; rounds: number; warmupSeconds: number; concurrency: number } {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '32' },
    },
  });
  return { seconds: Number(values.seconds), rounds: Number(values.rounds), warmupSeconds: Number(values.warmup), concurrency: Number(values.concurrency) };
}

export interface BenchStack {
  databaseUrl: string;
  valkeyUrl: string;
  queueSuffix: string;
  db: Db;
  redis: ReturnType<typeof createRedis>;
  /** What `start` started. */
  children: ChildApp[];
  /** A process of the bench's in the repo root, its stderr on this terminal; SIGTERMed by close(). */
  start: ChildAppLauncher;
  /** The api (apps/api/src/main.ts) in a process of its own, production mode, on this stack; `env` over the bench's settings. */
  startApi(name: string, env?: Record<string, string>): Promise<Server>;
  close(): Promise<void>;
}

/** A fresh database and queue suffix on the local Postgres and Redis; close() removes both. */
export async function openBenchStack(connectionName: string): Promise<BenchStack> {
  const stack = stackBuilder();
  const database = await stack.database();
  const queueSuffix = uniqueQueueSuffix('-bench');
  const valkeyUrl = process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379';
  const db = createDb(database.url);
  stack.defer(() => db.$disconnect());
  const redis = createRedis(valkeyUrl, { role: 'worker', connectionName });
  stack.defer(() => redis.quit());
  stack.defer(() => deleteKeysMatching(redis, `*${queueSuffix}*`));
  const children: ChildApp[] = [];
  const launch = stack.apps({ cwd: root, terminal: 'stderr' });
  const start: ChildAppLauncher = (options) => {
    const child = launch(options);
    children.push(child);
    return child;
  };
  return {
    databaseUrl: database.url,
    valkeyUrl,
    queueSuffix,
    db,
    redis,
    children,
    start,
    async startApi(name, env = {}) {
      const port = await freePort();
      const child = startProcess(start, 'apps/api/src/main.ts', {
        ...apiTestEnv({
          NODE_ENV: 'production',
          DATABASE_URL: database.url,
          VALKEY_URL: valkeyUrl,
          QUEUE_SUFFIX: queueSuffix,
          PORT: String(port),
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
          // Nothing measured reads object storage; a closed port makes any attempt fail fast.
          S3_ENDPOINT: 'http://127.0.0.1:9',
          ...env,
        }),
      });
      await waitForPort(port, '/readyz');
      return { name, port, pid: present(child.process.pid, `${name} pid`) };
    },
    close: stack.stop,
  };
}
