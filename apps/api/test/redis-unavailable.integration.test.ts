// What depends on Redis while it cannot be reached: readiness says so. Public search reads only the
// database (public_search_documents), so it keeps answering; a database outage answers it 503
// (database-unavailable.integration.test.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedis, waitForRedis } from '@staging/platform/queues';
import { startPrivateRedis } from '@staging/stack/private-redis';
import type { PrivateRedis } from '@staging/stack/private-redis';
import { createApiServer } from '../src/create-server';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call } from './support/fixtures';

let api: ApiHarness;
let redisServer: PrivateRedis;
let redis: ReturnType<typeof createRedis>;
let server: Server;
let url: string;

beforeAll(async () => {
  api = await startApi();
  redisServer = await startPrivateRedis();
  // The api's own kind of connection (apps/api/src/main.ts), to a Redis this file may stop.
  redis = createRedis(redisServer.url, { role: 'producer', connectionName: 'api-test-private', onError: () => {} });
  await waitForRedis(redis);
  server = createApiServer({ ...api.deps, redis }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  redis.disconnect();
  await redisServer.stop();
  await api.close();
  await stopS3();
});

/**
 * Asks /readyz until its Redis check reads `redis`, as a probe asks again: on a machine loaded by
 * the whole suite the database check alone can run out of its time once, which says nothing
 * about Redis. Returns that answer's status and body.
 */
async function readinessOnceRedisIs(redis: 'ok' | 'failed'): Promise<{ status: number; body: unknown }> {
  for (;;) {
    const answer = await call(`${url}/readyz`);
    const body = (await answer.json()) as { checks: { database: string; redis: string } };
    if (body.checks.redis === redis && body.checks.database === 'ok') return { status: answer.status, body };
  }
}

it('is ready on /readyz while Redis answers, and says Redis failed once it is down', async () => {
  expect(await readinessOnceRedisIs('ok')).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } } });

  await redisServer.stop();

  expect(await readinessOnceRedisIs('failed')).toEqual({ status: 503, body: { status: 'not_ready', checks: { database: 'ok', redis: 'failed' } } });
  await redisServer.restartEmpty();
  await waitForRedis(redis);
});

it('keeps answering public search on the route and the procedure while Redis is down: it reads only the database', async () => {
  const searchUrl = `${url}/api/public/search?q=harbour`;
  const procedureUrl = `${url}/api/trpc/public.search?input=${encodeURIComponent(JSON.stringify({ q: 'harbour' }))}`;
  expect((await call(searchUrl)).status).toBe(200);
  expect((await call(procedureUrl)).status).toBe(200);

  await redisServer.stop();

  const route = await call(searchUrl);
  expect(route.status).toBe(200);
  expect(await route.json()).toMatchObject({ query: 'harbour', totalIsLowerBound: false });
  expect((await call(procedureUrl)).status).toBe(200);
  await redisServer.restartEmpty();
  await waitForRedis(redis);
});
