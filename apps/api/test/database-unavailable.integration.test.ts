// A database that cannot serve for now (down, restarting, a connection lost under a statement) is a
// 503 with Retry-After on every route and procedure, with a message a client can act on, never the
// 500 of a bug; the failure is still logged for operators. A missing database stays a 500 (trying
// again cannot help), as packages/trpc/src/http.integration.test.ts shows.
import { unreachableDatabaseUrl } from '@staging/db/testing/broken-database-urls';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call } from './support/fixtures';
import { predictionBody, sendWebhook } from './support/provider-callbacks';
import { expectUnavailable } from './support/unavailable';

const PROPERTY_ID = 'prop_does_not_matter';

let api: ApiHarness;

beforeAll(async () => {
  api = await startApi({ env: { DATABASE_URL: unreachableDatabaseUrl(process.env.DATABASE_URL ?? '') } });
});

afterAll(async () => {
  await api.close();
  await stopS3();
});

it('answers an Express route 503 TEMPORARILY_UNAVAILABLE with Retry-After, and logs the cause', async () => {
  const body = JSON.parse(await expectUnavailable(await call(`${api.url}/api/public/properties/${PROPERTY_ID}`))) as {
    error: { code: string; message: string };
  };
  expect(body.error.code).toBe('TEMPORARILY_UNAVAILABLE');
  expect(body.error.message).toMatch(/try again/i);
  const logged = api.logs.lines().find((line) => line['msg'] === 'dependency unavailable');
  expect(JSON.stringify(logged)).toMatch(/ECONNREFUSED/);
});

it('answers a sign-in 503, so the agent knows to try again rather than doubt the password', async () => {
  const response = await call(`${api.url}/api/auth/login`, { method: 'POST', json: { email: 'agent@example.test', password: 'x'.repeat(12) } });
  expect(JSON.parse(await expectUnavailable(response))).toMatchObject({ error: { code: 'TEMPORARILY_UNAVAILABLE' } });
});

it('answers a tRPC procedure 503 SERVICE_UNAVAILABLE with appCode and retryAfterSeconds, with or without a session', async () => {
  const input = encodeURIComponent(JSON.stringify({ propertyId: PROPERTY_ID }));
  const url = `${api.url}/api/trpc/public.getProperty?input=${input}`;
  // Without a cookie the procedure fails; with one, the session lookup before it does.
  for (const cookie of [undefined, 'sid=some-session-token']) {
    const body = JSON.parse(await expectUnavailable(await call(url, cookie === undefined ? {} : { cookie }))) as {
      error: { message: string; data: { code: string; appCode: string; retryAfterSeconds: number } };
    };
    expect(body.error.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', appCode: 'TEMPORARILY_UNAVAILABLE', retryAfterSeconds: 2 });
    expect(body.error.message).toMatch(/try again/i);
  }
  expect(api.logs.lines().filter((line) => line['msg'] === 'trpc procedure failed')).toHaveLength(2);
});

it('answers a verified provider callback 503 on the path outside Express too, so the provider retries it', async () => {
  // A plain callback (declared length, no encoding) is answered before Express; a chunked one by the route.
  for (const chunked of [false, true]) {
    const response = await sendWebhook(api.url, 'attempt_1', { body: predictionBody('pred_1'), chunked });
    expect(JSON.parse(await expectUnavailable(response))).toMatchObject({ error: { code: 'TEMPORARILY_UNAVAILABLE' } });
  }
});

it('says on /readyz which dependency is missing, in the words every service uses, and that nobody may cache it', async () => {
  const answer = await call(`${api.url}/readyz`);
  expect(answer.status).toBe(503);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(await answer.json()).toEqual({ status: 'not_ready', checks: { database: 'failed', redis: 'ok' } });
});

it('answers public search 503 on the route and the procedure: it reads the database', async () => {
  expect(JSON.parse(await expectUnavailable(await call(`${api.url}/api/public/search?q=harbour`)))).toMatchObject({
    error: { code: 'TEMPORARILY_UNAVAILABLE' },
  });
  const procedure = await call(`${api.url}/api/trpc/public.search?input=${encodeURIComponent(JSON.stringify({ q: 'harbour' }))}`);
  expect(JSON.parse(await expectUnavailable(procedure))).toMatchObject({ error: { data: { appCode: 'TEMPORARILY_UNAVAILABLE' } } });
});
