// Every procedure takes its limit from the one table (@staging/http-edge/request-limits): reads as
// well as mutations, each call of a batch on its own, per user or per client address.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { PROCEDURE_LIMITS } from '@staging/http-edge/request-limits';
import type { RequestLimitOverrides } from '@staging/http-edge/request-limits';
import { appRouter } from './root';
import { callProcedure, createSignedInUser, createTestDeps, openTestResources, startTestServer } from './testing/test-server';
import type { CallResult, TestServer } from './testing/test-server';

const resources = openTestResources();
const servers: TestServer[] = [];

// Long enough that no window ends while a test runs, however slow the machine: a counter that
// started over mid-test would let one call more through than the table allows.
const WINDOW_SECONDS = 3_600;

/** A server of its own (own queue suffix, so own counters) with the given limits replaced. */
async function serverWith(overrides: RequestLimitOverrides = {}): Promise<string> {
  const deps = createTestDeps(resources, { requestLimitOverrides: overrides, trustedProxyHops: 1, rateLimitWindowSeconds: WINDOW_SECONDS }).deps;
  const server = await startTestServer(deps);
  servers.push(server);
  return server.url;
}

afterAll(async () => {
  for (const server of servers) await server.close();
  await resources.close();
});

function outcome(result: CallResult): [number, string] {
  return [result.status, result.ok ? 'OK' : result.error.data.code];
}

function expectRefused(result: CallResult): void {
  expect(outcome(result)).toEqual([429, 'TOO_MANY_REQUESTS']);
  if (result.ok) return;
  expect(result.error.data.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(result.headers.get('retry-after')).toBe(String(result.error.data.retryAfterSeconds));
}

test('the table names every procedure of the router, and nothing else', () => {
  expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(PROCEDURE_LIMITS).sort());
});

let cookie: string;
beforeAll(async () => {
  ({ cookie } = await createSignedInUser(resources.db));
});

test('300 calls of property.list in a row: refused from the first call past the table limit', async () => {
  const url = await serverWith();
  const limit = PROCEDURE_LIMITS['property.list'].points;
  expect(limit).toBeLessThan(300);
  const outcomes: [number, string][] = [];
  for (let i = 0; i < 300; i += 1) outcomes.push(outcome(await callProcedure(url, 'query', 'property.list', {}, { cookie })));
  expect(outcomes.findIndex(([status]) => status !== 200)).toBe(limit);
  expect(outcomes.slice(limit).every(([status, code]) => status === 429 && code === 'TOO_MANY_REQUESTS')).toBe(true);
  expectRefused(await callProcedure(url, 'query', 'property.list', {}, { cookie }));
  // Each procedure counts on its own.
  expect(outcome(await callProcedure(url, 'query', 'property.get', { propertyId: '00000000-0000-4000-8000-000000000000' }, { cookie }))[1]).toBe('NOT_FOUND');
});

test('every call of a batch takes a point: limit 5, a batch of 6 → the sixth is TOO_MANY_REQUESTS', async () => {
  const url = await serverWith({ 'property.list': 5 });
  const calls = 6;
  const paths = Array.from({ length: calls }, () => 'property.list').join(',');
  const input = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, {}]))));
  const response = await fetch(`${url}/${paths}?batch=1&input=${input}`, { headers: { cookie } });
  const answers = (await response.json()) as { result?: unknown; error?: { data: { code: string; retryAfterSeconds?: number } } }[];
  expect(answers.map((answer) => answer.error?.data.code ?? 'OK')).toEqual(['OK', 'OK', 'OK', 'OK', 'OK', 'TOO_MANY_REQUESTS']);
  expect(response.headers.get('retry-after')).toBe(String(answers[5]?.error?.data.retryAfterSeconds));
});

test('anonymous procedures count per client address; signed-in ones per user', async () => {
  const url = await serverWith({ 'public.search': 3, 'ai.getJob': 1 });
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  for (let i = 0; i < 3; i += 1) expect(outcome(await callProcedure(url, 'query', 'public.search', {}, from('198.51.100.1')))).toEqual([200, 'OK']);
  expectRefused(await callProcedure(url, 'query', 'public.search', {}, from('198.51.100.1')));
  expect(outcome(await callProcedure(url, 'query', 'public.search', {}, from('198.51.100.2')))).toEqual([200, 'OK']);

  // Another user behind the same address has a limit of their own.
  const other = await createSignedInUser(resources.db);
  const job = { aiJobId: '00000000-0000-4000-8000-000000000000' };
  expect(outcome(await callProcedure(url, 'query', 'ai.getJob', job, { cookie, ...from('198.51.100.3') }))[1]).toBe('NOT_FOUND');
  expectRefused(await callProcedure(url, 'query', 'ai.getJob', job, { cookie, ...from('198.51.100.4') }));
  expect(outcome(await callProcedure(url, 'query', 'ai.getJob', job, { cookie: other.cookie, ...from('198.51.100.3') }))[1]).toBe('NOT_FOUND');
  // Without a session a per-user procedure is refused, not counted by address.
  expect(outcome(await callProcedure(url, 'query', 'ai.getJob', job, from('198.51.100.3')))).toEqual([401, 'UNAUTHORIZED']);
});
