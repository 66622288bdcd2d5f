import { createHash, randomUUID } from 'node:crypto';
import { createUser } from '@staging/db/testing/factories';
import type { SeededUser } from '@staging/db/testing/factories';
import { startApi, stopS3, WEB_ORIGIN } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call, seedActors, seedListing, trpc } from './support/fixtures';

let api: ApiHarness;
let user: SeededUser;

// Small limits so the tests can reach them; the production values are in packages/http-edge/src/login-limits.ts.
const SMALL_LIMITS = {
  perIp: 6,
  failuresPerAccountAndIp: 3,
  failuresPerAccountBeforeDelay: 3,
  delayPerFailureMs: 20,
  maxDelayMs: 100,
  windowSeconds: 60,
};

beforeAll(async () => {
  // The test plays the one trusted proxy in front of the api: its X-Forwarded-For names the client.
  api = await startApi({ env: { TRUSTED_PROXY_HOPS: '1' }, loginRateLimits: SMALL_LIMITS });
  user = await createUser(api.db);
});
afterAll(async () => {
  await api.close();
  await stopS3();
});

/** A distinct client address per call site, so the per-IP bucket is only hit where intended. */
function clientIp(): string {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `203.0.${n()}.${n()}`;
}

async function login(email: string, password: string, ip = clientIp(), headers: Record<string, string> = {}, baseUrl = api.url): Promise<Response> {
  return call(`${baseUrl}/api/auth/login`, { method: 'POST', json: { email, password }, headers: { 'x-forwarded-for': ip, ...headers } });
}

function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0] ?? '';
}

describe('sessions', () => {
  it('logs in with 204 and an HttpOnly, SameSite=Lax session cookie (not Secure in test)', async () => {
    const response = await login(user.email, user.password);
    expect(response.status).toBe(204);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');

    const me = await call(`${api.url}/api/auth/me`, { cookie: cookieOf(response) });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ user: { id: user.id, email: user.email, name: user.name, role: 'AGENT' } });
  });

  it('stores the session token hashed, never in clear', async () => {
    const response = await login(user.email, user.password);
    const token = cookieOf(response).slice('sid='.length);
    const sessions = await api.db.session.findMany({ where: { userId: user.id } });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((session) => session.tokenHash !== token && /^[0-9a-f]{64}$/.test(session.tokenHash))).toBe(true);
  });

  it('answers a wrong password and an unknown email alike with 401 UNAUTHORIZED', async () => {
    const wrong = await login(user.email, 'not the password');
    const unknown = await login(`nobody-${randomUUID()}@example.test`, 'whatever');
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Invalid email or password' } });
    }
  });

  it('refuses malformed bodies with 400', async () => {
    const broken = await call(`${api.url}/api/auth/login`, { method: 'POST', body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: { code: 'BAD_REQUEST', message: 'Malformed request body' } });
    const missing = await call(`${api.url}/api/auth/login`, { method: 'POST', json: { email: user.email } });
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { error: { code: string; issues: { path: string[] }[] } };
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.issues.map((issue) => issue.path)).toEqual([['password']]);
  });

  it('logs out: the cookie is cleared and the session stops working', async () => {
    const cookie = cookieOf(await login(user.email, user.password));
    const out = await call(`${api.url}/api/auth/logout`, { method: 'POST', cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^sid=; .*Max-Age=0/);
    const me = await call(`${api.url}/api/auth/me`, { cookie });
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Sign in to continue' } });
  });

  it('answers other methods on the auth paths with 405', async () => {
    expect((await call(`${api.url}/api/auth/login`)).status).toBe(405);
    expect((await call(`${api.url}/api/auth/me`, { method: 'POST' })).status).toBe(405);
  });
});

describe('login rate limits', () => {
  it('cannot lock an agent out: after 20 wrong passwords from one address, the right password from another signs in', async () => {
    const target = await createUser(api.db);
    const attacker = clientIp();
    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push((await login(target.email, `wrong-${i}`, attacker)).status);
    // The attacker's address is refused for this account once it failed too often...
    expect(answers.slice(0, 3)).toEqual([401, 401, 401]);
    expect(new Set(answers.slice(3))).toEqual(new Set([429]));
    const limited = await login(target.email, 'wrong', attacker);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_REQUESTS');
    // ...case variants of the email included...
    expect((await login(target.email.toUpperCase(), 'wrong', attacker)).status).toBe(429);
    // ...but the agent, elsewhere, signs in at once.
    expect((await login(target.email, target.password)).status).toBe(204);
  });

  it('counts only failures per account: wrong passwords from many addresses never refuse the right one', async () => {
    const target = await createUser(api.db);
    // More failures than the account's threshold, each from an address of its own.
    for (let i = 0; i < 6; i += 1) expect((await login(target.email, `wrong-${i}`)).status).toBe(401);
    const accountKey = createHash('sha256').update(target.email.toLowerCase()).digest('hex');
    expect(await api.redis.get(`rl:login-account-fails${api.config.queueSuffix}:${accountKey}`)).toBe('6');
    expect((await login(target.email, target.password)).status).toBe(204);
    // A success is not a failure: the count did not move.
    expect(await api.redis.get(`rl:login-account-fails${api.config.queueSuffix}:${accountKey}`)).toBe('6');
  });

  it('the right password clears the failures of its address', async () => {
    const target = await createUser(api.db);
    const ip = clientIp();
    for (let i = 0; i < 2; i += 1) expect((await login(target.email, 'wrong', ip)).status).toBe(401);
    expect((await login(target.email, target.password, ip)).status).toBe(204);
    for (let i = 0; i < 2; i += 1) expect((await login(target.email, 'wrong', ip)).status).toBe(401);
    expect((await login(target.email, target.password, ip)).status).toBe(204);
  });

  it('invented X-Forwarded-For entries left of the trusted hop do not reset the per-account-and-address budget', async () => {
    const target = await createUser(api.db);
    const attacker = clientIp();
    // 20 wrong passwords at once, each claiming another client in front of the proxy's own entry:
    // no more reach the password check than the budget of one address for one account.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(target.email, `wrong-${i}`, `198.51.100.${i + 1}, ${attacker}`).then((r) => r.status)),
    );
    expect(answers.filter((status) => status === 401)).toHaveLength(SMALL_LIMITS.failuresPerAccountAndIp);
    expect(answers.filter((status) => status === 429)).toHaveLength(20 - SMALL_LIMITS.failuresPerAccountAndIp);
  });

  it('with no trusted proxy, 20 invented X-Forwarded-For values all count against the socket address', async () => {
    const direct = await startApi({ loginRateLimits: SMALL_LIMITS });
    try {
      const target = await createUser(direct.db);
      const answers: number[] = [];
      for (let i = 0; i < 20; i += 1) answers.push((await login(target.email, `wrong-${i}`, `203.0.113.${i + 1}`, {}, direct.url)).status);
      expect(answers.slice(0, SMALL_LIMITS.failuresPerAccountAndIp)).toEqual([401, 401, 401]);
      expect(new Set(answers.slice(SMALL_LIMITS.failuresPerAccountAndIp))).toEqual(new Set([429]));
    } finally {
      await direct.close();
    }
  });

  it('limits attempts per address across accounts', async () => {
    const ip = clientIp();
    for (let i = 0; i < 6; i += 1) expect((await login(`spray-${randomUUID()}@example.test`, 'x', ip)).status).toBe(401);
    const fresh = await createUser(api.db);
    const limited = await login(fresh.email, fresh.password, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    // Another address is unaffected.
    expect((await login(fresh.email, fresh.password)).status).toBe(204);
  });
});

describe('production cookies', () => {
  it('sets Secure outside development and test', async () => {
    const prod = await startApi({ env: { NODE_ENV: 'production' } });
    try {
      const response = await call(`${prod.url}/api/auth/login`, { method: 'POST', json: { email: user.email, password: user.password } });
      expect(response.status).toBe(204);
      expect(response.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await prod.close();
    }
  });
});

describe('Strict-Transport-Security', () => {
  const hstsOf = async (url: string, proto: string) =>
    (await call(`${url}/api/auth/me`, { headers: { 'x-forwarded-proto': proto } })).headers.get('strict-transport-security');

  it('is sent in production on answers that came over HTTPS through the trusted proxy, only there', async () => {
    const prod = await startApi({ env: { NODE_ENV: 'production', TRUSTED_PROXY_HOPS: '1' } });
    const untrusting = await startApi({ env: { NODE_ENV: 'production' } });
    try {
      expect(await hstsOf(prod.url, 'https')).toBe('max-age=31536000; includeSubDomains');
      expect(await hstsOf(prod.url, 'http')).toBeNull();
      // Without a trusted proxy a client's own X-Forwarded-Proto says nothing.
      expect(await hstsOf(untrusting.url, 'https')).toBeNull();
      // Outside production never, so a developer's localhost is not pinned to HTTPS.
      expect(await hstsOf(api.url, 'https')).toBeNull();
    } finally {
      await Promise.all([prod.close(), untrusting.close()]);
    }
  });
});

describe('cross-site requests with a session cookie', () => {
  it('refuses a foreign Origin or Sec-Fetch-Site cross-site on cookie-authenticated mutations', async () => {
    const actors = await seedActors(api.db);
    const listing = await seedListing(api.db, api.storage, actors);
    const patch = (headers: Record<string, string>) =>
      call(`${api.url}/api/property-images/${listing.original.id}`, {
        method: 'PATCH',
        cookie: actors.cookies.owner,
        json: { displayOrder: 7 },
        headers,
      });
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const response = await patch(headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Cross-site request refused' } });
    }
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.original.id } })).displayOrder).toBe(1);

    for (const headers of [{ origin: WEB_ORIGIN }, { origin: api.url }, { 'sec-fetch-site': 'same-origin' }, {}] as Record<string, string>[]) {
      expect((await patch(headers)).status).toBe(200);
    }

    const trpcRefused = await trpc(api.url, 'mutation', 'ai.approveStagedVariant', { imageId: listing.pending.id }, actors.cookies.owner, {
      origin: 'https://evil.example',
    });
    expect(trpcRefused.status).toBe(403);
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.pending.id } })).reviewStatus).toBe('PENDING_REVIEW');

    const logout = await call(`${api.url}/api/auth/logout`, { method: 'POST', cookie: actors.cookies.owner, headers: { origin: 'https://evil.example' } });
    expect(logout.status).toBe(403);
    expect((await call(`${api.url}/api/auth/me`, { cookie: actors.cookies.owner })).status).toBe(200);
  });
});
