import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { webTestEnv } from '@staging/config/test-env';
import { parseWebEnv } from '@staging/config/web';
import { createUser } from '@staging/db/testing/factories';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { createSession, resolveSession } from '@staging/services/auth/sessions';
import { createLoginGuard } from '@staging/http-edge/login-guard';
import { createTestDeps, env, openTestResources } from '@staging/trpc/testing/test-server';
import type { LogCapture, TestResources } from '@staging/trpc/testing/test-server';
import { POST as signIn } from '@/app/auth/sign-in/route';
import { POST as signOut } from '@/app/auth/sign-out/route';
import type { WebDeps } from './deps';

// Small limits so 20 attempts cross them; production's are in packages/http-edge/src/login-limits.ts.
const LIMITS = { perIp: 50, failuresPerAccountAndIp: 3, failuresPerAccountBeforeDelay: 50, delayPerFailureMs: 0, maxDelayMs: 0, windowSeconds: 60 };

let resources: TestResources;
beforeAll(() => {
  resources = openTestResources();
});
afterAll(async () => {
  delete (globalThis as { __stagingWebDeps?: WebDeps }).__stagingWebDeps;
  await resources.close();
});

/** The web's deps (src/server/deps.ts picks them up from globalThis) with TRUSTED_PROXY_HOPS = hops; its warnings and errors. */
function useWebDeps(hops: number): LogCapture {
  const config = parseWebEnv(webTestEnv({ DATABASE_URL: env('DATABASE_URL'), VALKEY_URL: env('VALKEY_URL'), TRUSTED_PROXY_HOPS: String(hops) }));
  const { deps, logs } = createTestDeps(resources, { trustedProxyHops: hops });
  const web: WebDeps = {
    config,
    db: resources.db,
    redis: resources.redis as unknown as WebDeps['redis'],
    logger: deps.logger,
    handleTrpc: () => Promise.reject(new Error('not used here')),
    loginGuard: createLoginGuard(deps, LIMITS),
  };
  (globalThis as { __stagingWebDeps?: WebDeps }).__stagingWebDeps = web;
  return logs;
}

function form(email: string, password: string, headers: Record<string, string>, next = '/properties'): Request {
  return new Request('http://app.example.test/auth/sign-in', {
    method: 'POST',
    headers: { host: 'app.example.test', origin: 'http://app.example.test', ...headers },
    body: new URLSearchParams({ email, password, next }),
  });
}

/** The session the answer's cookie names, if it names one that is live. */
async function sessionUserOf(response: Response): Promise<string | null> {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith(`${SESSION_COOKIE_NAME}=`));
  const token = cookie?.slice(SESSION_COOKIE_NAME.length + 1).split(';')[0];
  if (token === undefined) return null;
  return (await resolveSession(resources.db, token, new Date()))?.user.id ?? null;
}

/** The sign-in form's outcome as the page shows it: invalid, throttled, or the next page. */
async function outcomeOf(request: Request): Promise<string> {
  const location = new URL((await signIn(request)).headers.get('location') ?? '', 'http://x');
  return location.searchParams.get('error') ?? location.pathname;
}

describe('sign-in route: invented X-Forwarded-For values do not reset the login budget', () => {
  it.each([
    ['behind one trusted proxy: entries left of its own are ignored', 1, (i: number) => `198.51.100.${i + 1}, 203.0.113.50`],
    ['with no trusted proxy: the header is ignored', 0, (i: number) => `198.51.100.${i + 1}`],
  ])('%s', async (_name, hops, forwardedFor) => {
    useWebDeps(hops);
    const agent = await createUser(resources.db);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => outcomeOf(form(agent.email, `wrong-${i}`, { 'x-forwarded-for': forwardedFor(i) }))),
    );
    // 20 wrong passwords at once reach the password check only as often as one address may.
    expect(outcomes.filter((outcome) => outcome === 'invalid')).toHaveLength(LIMITS.failuresPerAccountAndIp);
    expect(outcomes.filter((outcome) => outcome === 'throttled')).toHaveLength(20 - LIMITS.failuresPerAccountAndIp);
  });

  it('keeps the budget per address behind a trusted proxy: the agent from elsewhere signs in', async () => {
    useWebDeps(1);
    const agent = await createUser(resources.db);
    for (let i = 0; i < 5; i += 1) await outcomeOf(form(agent.email, 'wrong', { 'x-forwarded-for': '203.0.113.60' }));
    expect(await outcomeOf(form(agent.email, 'wrong', { 'x-forwarded-for': '203.0.113.60' }))).toBe('throttled');
    expect(await outcomeOf(form(agent.email, agent.password, { 'x-forwarded-for': '203.0.113.61' }))).toBe('/properties');
  });
});

describe('web same-origin rule', () => {
  it('refuses a sign-out from another site that names that site in X-Forwarded-Host', async () => {
    useWebDeps(0);
    const forged = new Request('http://app.example.test/auth/sign-out', {
      method: 'POST',
      headers: { host: 'app.example.test', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect((await signOut(forged)).status).toBe(403);
  });

  it('sets Secure only when a trusted proxy says HTTPS', async () => {
    const secureOf = async (hops: number) => {
      useWebDeps(hops);
      const agent = await createUser(resources.db);
      const response = await signIn(form(agent.email, agent.password, { 'x-forwarded-for': '203.0.113.70', 'x-forwarded-proto': 'https' }));
      return /;\s*Secure/i.test(response.headers.get('set-cookie') ?? '');
    };
    expect(await secureOf(0)).toBe(false);
    expect(await secureOf(1)).toBe(true);
  });
});

describe('sign-in route and a language chosen before signing in', () => {
  it("saves a language chosen in this browser to the account, sets no language cookie, and leaves the account's alone without one", async () => {
    useWebDeps(1);
    const localeOf = async (id: string) => (await resources.db.user.findUniqueOrThrow({ where: { id }, select: { locale: true } })).locale;
    const chose = await createUser(resources.db);
    await resources.db.user.update({ where: { id: chose.id }, data: { locale: 'en' } });
    const response = await signIn(form(chose.email, chose.password, { 'x-forwarded-for': '203.0.113.80', cookie: 'theme=dark; locale=es' }));
    expect(response.headers.get('location')).toBe('/properties');
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('locale='))).toBe(false);
    expect(await localeOf(chose.id)).toBe('es');

    const didNotChoose = await createUser(resources.db);
    await resources.db.user.update({ where: { id: didNotChoose.id }, data: { locale: 'es' } });
    await signIn(form(didNotChoose.email, didNotChoose.password, { 'x-forwarded-for': '203.0.113.81', cookie: 'locale=fr' }));
    expect(await localeOf(didNotChoose.id)).toBe('es');
  });

  it('ends the session at sign-out and keeps the language chosen in this browser', async () => {
    useWebDeps(1);
    const agent = await createUser(resources.db);
    const { token } = await createSession(resources.db, agent.id, { now: new Date(), ttlMs: 60_000 });
    const request = new Request('http://app.example.test/auth/sign-out', {
      method: 'POST',
      headers: { host: 'app.example.test', origin: 'http://app.example.test', cookie: `locale=es; ${SESSION_COOKIE_NAME}=${token}` },
    });
    const response = await signOut(request);
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie().map((cookie) => cookie.split('=')[0])).toEqual([SESSION_COOKIE_NAME]);
    expect(await resources.db.session.count({ where: { userId: agent.id } })).toBe(0);
  });
});

describe('sign-in route: whatever the form says, a session it creates leaves with its cookie', () => {
  it.each([
    ['outside ASCII', '/日', '/%E6%97%A5'],
    ['with a space and a right-to-left override', '/properties/x?q=a b\u202e', '/properties/x?q=a%20b%E2%80%AE'],
    ['whose percent-encoding is not UTF-8', '/%FF', '/properties'],
    ['with a line break', '/x\r\nSet-Cookie: a=b', '/properties'],
    ['protocol-relative', '//evil.test', '/properties'],
  ])('a next %s, %j: 303 to a path a header can carry, with the cookie of the one new session', async (_name, next, location) => {
    useWebDeps(1);
    const agent = await createUser(resources.db);
    const response = await signIn(form(agent.email, agent.password, { 'x-forwarded-for': '203.0.113.90' }, next));
    expect([response.status, response.headers.get('location')]).toEqual([303, location]);
    expect(await sessionUserOf(response)).toBe(agent.id);
    expect(await resources.db.session.count({ where: { userId: agent.id } })).toBe(1);
  });

  it('signs in with the cookie when the account cannot take the language chosen in this browser, and says so in the log', async () => {
    const logs = useWebDeps(1);
    const agent = await createUser(resources.db);
    // The database refuses this one agent's language, as it would refuse any write during an outage.
    const refusal = `refuse_locale_${agent.id.replace(/-/g, '')}`;
    await resources.db.$executeRawUnsafe(`CREATE FUNCTION ${refusal}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await resources.db.$executeRawUnsafe(
      `CREATE TRIGGER ${refusal} BEFORE UPDATE OF "locale" ON "users" FOR EACH ROW WHEN (NEW."id" = '${agent.id}') EXECUTE FUNCTION ${refusal}()`,
    );
    try {
      const response = await signIn(form(agent.email, agent.password, { 'x-forwarded-for': '203.0.113.91', cookie: 'locale=es' }));
      expect([response.status, response.headers.get('location')]).toEqual([303, '/properties']);
      expect(await sessionUserOf(response)).toBe(agent.id);
      expect(logs.lines).toContainEqual(expect.objectContaining({ event: 'web.sign_in_locale_not_saved', userId: agent.id }));
    } finally {
      await resources.db.$executeRawUnsafe(`DROP TRIGGER ${refusal} ON "users"`);
      await resources.db.$executeRawUnsafe(`DROP FUNCTION ${refusal}()`);
    }
  });
});
