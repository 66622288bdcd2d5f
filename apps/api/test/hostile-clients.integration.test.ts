// Every route of the api, enumerated from its Express routers and the tRPC router (a new route is
// covered without editing this file), receives the requests of a careless or hostile client
// (tools/stack hostile-requests.ts) against the real api process. Whatever arrives: the process
// stays up, every answer is below 500 and a 4xx carries the documented error body, and no row or
// stored object is left behind.
import { randomUUID } from 'node:crypto';
import { apiTestEnv } from '@staging/config/test-env';
import { STAGING_WEBHOOK_PATH_PREFIX } from '@staging/provider/webhook-url';
import { startApiProcess } from '@staging/stack/api-process';
import type { ApiProcess } from '@staging/stack/api-process';
import { expressRoutes, hostileCasesFor, isRestErrorBody, isTrpcErrorBody, isTrpcStreamErrorBody, judgeAnswer, slowHeadersCase } from '@staging/stack/hostile-requests';
import type { RouteUnderTest } from '@staging/stack/hostile-requests';
import { sendRaw } from '@staging/stack/raw-http';
import { storedKeys } from '@staging/stack/s3-server';
import { TRPC_ENDPOINT } from '@staging/trpc/http';
import { appRouter } from '@staging/trpc/root';
import { createApp } from '../src/create-app';
import type { ProviderCallbackRecorder } from '../src/webhooks/record-provider-callback';
import { TEST_BUCKET, WEB_ORIGIN } from './support/api-test-kit';
import { seedListing, useApiTestContext } from './support/fixtures';
import type { Listing } from './support/fixtures';

const api = useApiTestContext();
let listing: Listing;
let apiProcess: ApiProcess | undefined;

/** Fills `:param` with an id of the seeded listing where one fits, so requests reach the handlers. */
function concretePath(path: string): string {
  const samples: Record<string, string> = { propertyId: listing.propertyId, imageId: listing.original.id, size: 'w640' };
  return path.replace(/:(\w+)/g, (_match, name: string) => samples[name] ?? randomUUID());
}

function routesUnderTest(): RouteUnderTest[] {
  const app = createApp(api.deps, (() => Promise.reject(new Error('never called'))) as unknown as ProviderCallbackRecorder);
  const express = expressRoutes(app).map((route) => ({ method: route.method, path: concretePath(route.path) }));
  const procedures = // At run time the record is flat, keyed by the dotted procedure path.
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(([name, procedure]) => ({
    method: procedure._def.type === 'query' ? 'GET' : 'POST',
    path: `${TRPC_ENDPOINT}/${name}${procedure._def.type === 'query' ? '?input=%7B%7D' : ''}`,
  }));
  // The provider's callbacks are answered before Express (direct-provider-webhook.ts).
  const direct = { method: 'POST', path: `${STAGING_WEBHOOK_PATH_PREFIX}${randomUUID()}` };
  return [...express, ...procedures, direct];
}

/** Rows per table and stored object keys: what a refused request must not change. */
async function persistedState(): Promise<{ rows: Record<string, number>; keys: string[] }> {
  const tables = await api.db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [count] = await api.db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${name}"`);
    rows[name] = Number(count?.n ?? 0);
  }
  // Derivatives are a cache of a stored image, written by reads on purpose.
  const keys = (await storedKeys(api.config.storage.endpoint!, TEST_BUCKET)).filter((key) => !key.startsWith('derivatives/'));
  return { rows, keys: keys.sort() };
}

beforeAll(async () => {
  listing = await seedListing(api.db, api.storage, api.actors);
  apiProcess = await startApiProcess(
    apiTestEnv({
      DATABASE_URL: api.config.databaseUrl,
      VALKEY_URL: api.config.valkeyUrl,
      QUEUE_SUFFIX: api.config.queueSuffix,
      S3_ENDPOINT: api.config.storage.endpoint,
      S3_BUCKET: TEST_BUCKET,
      API_ALLOWED_ORIGINS: WEB_ORIGIN,
      PORT: '0',
      // The api reports its port in an info line.
      LOG_LEVEL: 'info',
    }),
  );
});
afterAll(async () => {
  await apiProcess?.stop();
});

function origin(): string {
  if (apiProcess === undefined) throw new Error('the api process did not start');
  return apiProcess.origin;
}

/**
 * A request Node's parser refuses never reaches tRPC: the server answers it with the body every
 * route outside tRPC uses (createServiceHttpServer). A subscription refused before its stream
 * opens answers with its status and the stream's one error event.
 */
const trpcOrServerErrorBody = (body: Buffer): boolean => isTrpcErrorBody(body) || isTrpcStreamErrorBody(body) || isRestErrorBody(body);

/** Requests in flight at once: enough to finish fast, few enough to leave the machine usable. */
const PARALLEL = 4;

/**
 * Hang guard of the sweep: about 44 cases per route, twice, for every route of the api (43 today,
 * each new route adds its share). It takes seconds when every answer closes its connection as the
 * request asked; the guard is for a busy 2-core machine, not a speed limit.
 */
const WHOLE_SWEEP_TIMEOUT_MS = 15 * 60_000;

async function inBatches<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(run));
}

it('a live-status stream asked for with Connection: close ends its connection once answered', async () => {
  // tRPC marks event streams keep-alive; without closing as asked, this connection idles for the
  // server's keep-alive timeout (65 s), and the hang guard below ends it first.
  const request = [`GET ${TRPC_ENDPOINT}/ai.stagingEvents HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', 'Accept: text/event-stream', '', ''].join('\r\n');
  const answer = await sendRaw(origin(), { pieces: [request], hangGuardMs: 30_000 });
  expect(answer.hung).toBeUndefined();
  expect(answer.headers['content-type']).toMatch(/text\/event-stream/);
  expect(answer.body.toString()).toContain('UNAUTHORIZED');
});

it('every route survives every hostile request, signed in and not, and keeps nothing of them', async () => {
  const routes = routesUnderTest();
  expect(routes.length).toBeGreaterThan(20);
  const before = await persistedState();
  const failures: string[] = [];
  const casesPerRoute = new Map<string, number>();
  // Slow headers run beside everything else: the server must keep serving while one client dawdles.
  const slow = sendRaw(origin(), slowHeadersCase({ method: 'GET', path: '/healthz' }).request);
  for (const session of [undefined, api.actors.cookies.owner]) {
    const headerLines = session === undefined ? [] : [`Cookie: ${session}`];
    // A DELETE or a sign-out needs no body: signed in, some of these requests are simply valid and
    // would delete the seeded photo or end the session the other cases need.
    const reachable = session === undefined ? routes : routes.filter((route) => route.method !== 'DELETE' && route.path !== '/api/auth/logout');
    await inBatches(reachable, async (route) => {
      const cases = hostileCasesFor(route, { headerLines });
      const label = `${route.method} ${route.path.split('?')[0]}`;
      const errorBody = route.path.startsWith(TRPC_ENDPOINT) ? trpcOrServerErrorBody : isRestErrorBody;
      casesPerRoute.set(label, (casesPerRoute.get(label) ?? 0) + cases.length);
      for (const hostileCase of cases) {
        const answer = await sendRaw(origin(), hostileCase.request).catch((error: unknown) => error as Error);
        const verdict =
          answer instanceof Error
            ? `${answer.message} (api exit code ${String(apiProcess!.exitCode())})`
            : judgeAnswer(hostileCase, answer, errorBody, { path: route.path });
        if (verdict !== undefined) failures.push(`${label} ${session === undefined ? 'anonymous' : 'signed in'}, ${hostileCase.name}: ${verdict}`);
      }
    });
  }
  process.stdout.write(`hostile-client cases per api route:\n${[...casesPerRoute].map(([label, n]) => `  ${n}\t${label}`).join('\n')}\n`);
  expect(failures).toEqual([]);
  expect((await slow).status).toBe(200);
  expect(apiProcess!.exitCode()).toBeNull();
  expect(await persistedState()).toEqual(before);
}, WHOLE_SWEEP_TIMEOUT_MS);
