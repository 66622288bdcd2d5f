// Every GET route that reads data takes its limit from the one table
// (@staging/http-edge/request-limits): anonymous ones per client address (Express's req.ip), signed-in
// ones per user; over the limit the documented 429 error body with Retry-After.
import { sqlPoolOf } from '@staging/db/client';
import { createUser } from '@staging/db/testing/factories';
import { API_READ_LIMITS, UNLIMITED_API_ROUTES } from '@staging/http-edge/request-limits';
import { expressRoutes } from '@staging/stack/hostile-requests';
import { createApp } from '../src/create-app';
import { readLimitRouteOf } from '../src/http/read-limits';
import { createProviderCallbackRecorder } from '../src/webhooks/record-provider-callback';
import { sessionCookie, startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call, trpc } from './support/fixtures';

let api: ApiHarness;

beforeAll(async () => {
  api = await startApi({
    // One trusted hop, so the tests can be many clients by naming them in X-Forwarded-For.
    env: { TRUSTED_PROXY_HOPS: '1' },
    requestLimitOverrides: { '/api/public/search': 3, '/api/public/properties/:propertyId': 2, '/api/auth/me': 2, 'public.search': 2 },
  });
  // Until its connection is ready the limiter lets calls through (as while Redis is down), which
  // would give the first test one call more than its limit.
  await api.redis.ping();
});
afterAll(async () => {
  await api.close();
  await stopS3();
});

/** Every GET route of the app with the read-limit routes its handlers carry. */
function getRoutes(): Map<string, (string | undefined)[]> {
  const app = createApp(api.deps, createProviderCallbackRecorder(sqlPoolOf(api.db), api.deps.logger));
  return new Map(
    expressRoutes(app)
      .filter((route) => route.method === 'GET')
      .map((route) => [route.path, route.handlers.map((handler) => readLimitRouteOf(handler))]),
  );
}

test('every GET route carries the read limit of its own path, and every table entry is a route', () => {
  const routes = getRoutes();
  const limited = [...routes].filter(([path]) => !(UNLIMITED_API_ROUTES as readonly string[]).includes(path));
  for (const [path, guards] of limited) expect([path, guards.filter((guard) => guard !== undefined)]).toEqual([path, [path]]);
  expect(limited.map(([path]) => path).sort()).toEqual(Object.keys(API_READ_LIMITS).sort());
  for (const path of UNLIMITED_API_ROUTES) expect([path, routes.get(path)?.some((guard) => guard !== undefined)]).toEqual([path, false]);
});

async function expectTooManyRequests(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ error: { code: 'TOO_MANY_REQUESTS', message: expect.any(String) } });
}

test('an anonymous read over its limit is 429 with the error body and Retry-After, per client address', async () => {
  const search = (address: string) => call(`${api.url}/api/public/search?q=x`, { headers: { 'x-forwarded-for': address } });
  for (let i = 0; i < 3; i += 1) expect((await search('198.51.100.1')).status).toBe(200);
  await expectTooManyRequests(await search('198.51.100.1'));
  expect((await search('198.51.100.2')).status).toBe(200);

  // Each route counts on its own; an unknown property still takes a point.
  const property = (address: string) =>
    call(`${api.url}/api/public/properties/00000000-0000-4000-8000-000000000000`, { headers: { 'x-forwarded-for': address } });
  for (let i = 0; i < 2; i += 1) expect((await property('198.51.100.1')).status).toBe(404);
  await expectTooManyRequests(await property('198.51.100.1'));
});

test('a signed-in read counts per user, whatever the address; without a session it is 401', async () => {
  const [one, two] = await Promise.all([createUser(api.db), createUser(api.db)]);
  const me = async (userId: string, address: string) =>
    call(`${api.url}/api/auth/me`, { cookie: await sessionCookie(api.db, userId), headers: { 'x-forwarded-for': address } });
  expect((await me(one.id, '198.51.100.5')).status).toBe(200);
  expect((await me(one.id, '198.51.100.6')).status).toBe(200);
  await expectTooManyRequests(await me(one.id, '198.51.100.7'));
  expect((await me(two.id, '198.51.100.5')).status).toBe(200);
  expect((await call(`${api.url}/api/auth/me`, { headers: { 'x-forwarded-for': '198.51.100.5' } })).status).toBe(401);
});

test("the api's tRPC procedures count anonymous callers by the same client address", async () => {
  const search = (address: string) => trpc(api.url, 'query', 'public.search', {}, undefined, { 'x-forwarded-for': address });
  for (let i = 0; i < 2; i += 1) expect((await search('198.51.100.9')).status).toBe(200);
  const refused = await search('198.51.100.9');
  expect([refused.status, refused.body.error?.data.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
  expect((await search('198.51.100.10')).status).toBe(200);
});
