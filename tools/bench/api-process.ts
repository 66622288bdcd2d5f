// The api as the HTTP benchmarks measure it: apps/api/src/main.ts in a process of its own,
// production mode, on the benchmark's database, queue store and queue suffix.
import type { ChildProcess } from 'node:child_process';
import { apiTestEnv } from '../../packages/config/src/test-env';
import { freePort, startProcess, waitForPort } from './http-load';
import type { Server } from './http-load';

export async function startApiProcess(
  name: string,
  options: { databaseUrl: string; valkeyUrl: string; queueSuffix: string },
): Promise<{ server: Server; child: ChildProcess }> {
  const port = await freePort();
  const child = startProcess('apps/api/src/main.ts', {
    ...(apiTestEnv({
      NODE_ENV: 'production',
      DATABASE_URL: options.databaseUrl,
      VALKEY_URL: options.valkeyUrl,
      QUEUE_SUFFIX: options.queueSuffix,
      PORT: String(port),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      // Nothing measured reads object storage; a closed port makes any attempt fail fast.
      S3_ENDPOINT: 'http://127.0.0.1:9',
    }) as Record<string, string>),
  });
  await waitForPort(port, '/readyz');
  return { server: { name, port, pid: child.pid! }, child };
}
