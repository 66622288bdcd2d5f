import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { appRoutes } from '@bull-board/api/dist/routes.js';
import { QueueEvents } from 'bullmq';
import { createSearchQueue } from '@staging/services/search/search-queue';
import type { SearchQueue } from '@staging/services/search/search-queue';
import { startTestStack } from '../../test/support/test-stack';
import type { RunningWorker, TestStack } from '../../test/support/test-stack';
import { DASHBOARD_AUTH_FAILURES } from './basic-auth';

let stack: TestStack;
let search: SearchQueue;
let searchEvents: QueueEvents;

beforeAll(async () => {
  stack = await startTestStack();
  search = createSearchQueue(stack.redis, stack.suffix);
  searchEvents = new QueueEvents(search.name, { connection: stack.redis });
  await searchEvents.waitUntilReady();
});

afterAll(async () => {
  await searchEvents.close();
  await search.close();
  await stack.close();
});

const USER = 'ops';
const PASSWORD = 'dashboard-secret-for-tests';

function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

const ENABLED = { QUEUE_DASHBOARD_USER: USER, QUEUE_DASHBOARD_PASSWORD: PASSWORD };

/**
 * A GET from a loopback address of the test's choosing (Linux routes all of 127/8 to lo), so a
 * test's failed sign-ins are counted for an address no other test uses.
 */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    request(url, { localAddress, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    })
      .on('error', reject)
      .end();
  });
}

/** A job the worker's search consumer has failed (its payload does not validate). */
async function failedSearchJob(): Promise<string> {
  const job = await search.add('dashboard-test', { v: 2 } as never);
  await expect(job.waitUntilFinished(searchEvents)).rejects.toThrow();
  return job.id!;
}

/**
 * Every route of the installed bull-board that is not a read, with its parameters filled in. An
 * unknown parameter throws, so a bull-board upgrade adding one makes this test ask for it.
 */
function changingRoutes(params: Record<string, string>): { method: string; path: string }[] {
  return appRoutes.api.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'get')
      .flatMap((method) =>
        [route.route].flat().map((pattern) => ({
          method: method.toUpperCase(),
          path: pattern.replace(/:(\w+)/g, (_, name: string) => {
            const value = params[name];
            if (value === undefined) throw new Error(`no test value for :${name} in ${pattern}`);
            return encodeURIComponent(value);
          }),
        })),
      ),
  );
}

function securityHeadersOf(headers: Headers | IncomingHttpHeaders) {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : ((headers[name] as string | undefined) ?? null);
  return {
    poweredBy: get('x-powered-by'),
    nosniff: get('x-content-type-options'),
    csp: get('content-security-policy'),
  };
}

const SECURE = { poweredBy: null, nosniff: 'nosniff', csp: "frame-ancestors 'none'" };

async function readOnlyModes(base: string): Promise<boolean[]> {
  const response = await fetch(`${base}/admin/queues/api/queues`, { headers: basic(USER, PASSWORD) });
  const body = (await response.json()) as { queues: { readOnlyMode: boolean }[] };
  return body.queues.map((q) => q.readOnlyMode);
}

/**
 * Failures are counted in Redis once the worker's connection is ready and in the process's memory
 * before (the limiter does not wait in the offline queue); /readyz answers 200 only after a PING,
 * so from then on every count lands in Redis.
 */
async function untilReady(base: string): Promise<void> {
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
}

async function withWorker(
  env: Record<string, string | undefined>,
  run: (base: string, worker: RunningWorker) => Promise<void>,
): Promise<void> {
  const worker = await stack.startWorker({ env, overrides: { http: true } });
  try {
    await run(`http://127.0.0.1:${worker.app.port}`, worker);
  } finally {
    await worker.stop();
  }
}

describe('queue dashboard (bull-board behind basic auth)', () => {
  it('is not mounted at all without credentials, and the worker says so once at boot', async () => {
    await withWorker(
      { QUEUE_DASHBOARD_USER: undefined, QUEUE_DASHBOARD_PASSWORD: undefined },
      async (base, worker) => {
        expect((await fetch(`${base}/admin/queues`)).status).toBe(404);
        expect(
          (await fetch(`${base}/admin/queues/api/queues`, { headers: basic(USER, PASSWORD) })).status,
        ).toBe(404);
        expect(worker.log.events('queue_dashboard.disabled')).toHaveLength(1);
      },
    );
  });

  it('is not mounted when only one of user and password is set', async () => {
    await withWorker({ QUEUE_DASHBOARD_USER: USER, QUEUE_DASHBOARD_PASSWORD: undefined }, async (base) => {
      expect((await fetch(`${base}/admin/queues`, { headers: basic(USER, '') })).status).toBe(404);
    });
    await withWorker(
      { QUEUE_DASHBOARD_USER: undefined, QUEUE_DASHBOARD_PASSWORD: PASSWORD },
      async (base) => {
        expect((await fetch(`${base}/admin/queues`)).status).toBe(404);
      },
    );
  });

  it('answers 401 without or with wrong credentials and 200 with the right ones, for all three queues', async () => {
    await withWorker(
      { QUEUE_DASHBOARD_USER: USER, QUEUE_DASHBOARD_PASSWORD: PASSWORD },
      async (base, worker) => {
        expect(worker.log.events('queue_dashboard.mounted')).toHaveLength(1);
        const anonymous = await fetch(`${base}/admin/queues`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
        for (const [user, password] of [
          [USER, 'wrong'],
          ['wrong', PASSWORD],
          [USER, `${PASSWORD}x`],
          [USER, PASSWORD.slice(0, -1)],
        ] as const) {
          expect(
            (await fetch(`${base}/admin/queues/api/queues`, { headers: basic(user, password) })).status,
          ).toBe(401);
        }

        const page = await fetch(`${base}/admin/queues`, { headers: basic(USER, PASSWORD) });
        expect(page.status).toBe(200);
        const api = await fetch(`${base}/admin/queues/api/queues`, { headers: basic(USER, PASSWORD) });
        expect(api.status).toBe(200);
        const body = (await api.json()) as { queues: { name: string }[] };
        expect(body.queues.map((q) => q.name).sort()).toEqual(
          [`ai${stack.suffix}`, `ai-staging${stack.suffix}`, `search-indexing${stack.suffix}`].sort(),
        );
      },
    );
  });

  it('is read-only by default: every changing route of bull-board answers 403 and changes nothing', async () => {
    await withWorker(ENABLED, async (base, worker) => {
      expect(worker.log.events('queue_dashboard.mounted')).toMatchObject([{ writesEnabled: false }]);
      const jobId = await failedSearchJob();
      const routes = changingRoutes({ queueName: search.name, jobId, queueStatus: 'failed', schedulerId: 'none' });
      // Retry, promote, clean, add, pause/resume, empty, obliterate, … (today's table has 29).
      expect(routes.length).toBeGreaterThan(20);
      const answers: string[] = [];
      for (const { method, path } of routes) {
        const response = await fetch(`${base}/admin/queues${path}`, {
          method,
          headers: { ...basic(USER, PASSWORD), 'content-type': 'application/json' },
          body: '{}',
        });
        const body = (await response.json()) as { error?: { code?: string } };
        answers.push(`${method} ${path} ${response.status} ${body.error?.code}`);
      }
      expect(answers).toEqual(routes.map(({ method, path }) => `${method} ${path} 403 FORBIDDEN`));
      expect(await search.getJobState(jobId)).toBe('failed');
      expect(await search.isPaused()).toBe(false);
      // Reading still works, and bull-board's own read-only mode hides the buttons.
      const job = await fetch(`${base}/admin/queues/api/queues/${search.name}/${jobId}`, { headers: basic(USER, PASSWORD) });
      expect(job.status).toBe(200);
      expect(await readOnlyModes(base)).toEqual([true, true, true]);
    });
  });

  it('with QUEUE_DASHBOARD_WRITES=enabled retries failed jobs', async () => {
    await withWorker({ ...ENABLED, QUEUE_DASHBOARD_WRITES: 'enabled' }, async (base, worker) => {
      expect(worker.log.events('queue_dashboard.mounted')).toMatchObject([{ writesEnabled: true }]);
      await failedSearchJob();
      const failed = await search.getJobCountByTypes('failed');
      const retry = await fetch(`${base}/admin/queues/api/queues/${search.name}/retry/failed`, {
        method: 'PUT',
        headers: basic(USER, PASSWORD),
      });
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual({ retried: failed, skipped: 0 });
      expect(await readOnlyModes(base)).toEqual([false, false, false]);
    });
  });

  it('sends no X-Powered-By, nosniff and frame-ancestors none on every answer', async () => {
    await withWorker(ENABLED, async (base) => {
      const auth = basic(USER, PASSWORD);
      const answers = {
        anonymous: await fetch(`${base}/admin/queues`),
        wrongPassword: await fetch(`${base}/admin/queues/api/queues`, { headers: basic(USER, 'wrong') }),
        page: await fetch(`${base}/admin/queues`, { headers: auth }),
        api: await fetch(`${base}/admin/queues/api/queues`, { headers: auth }),
        asset: await fetch(`${base}/admin/queues/static/favicon-32x32.png`, { headers: auth }),
        unknownDashboardPath: await fetch(`${base}/admin/queues/api/no-such-route`, { headers: auth }),
        refusedWrite: await fetch(`${base}/admin/queues/api/queues/pause`, { method: 'PUT', headers: auth }),
        unknownPath: await fetch(`${base}/no-such-path`),
        health: await fetch(`${base}/healthz`),
      };
      expect(Object.fromEntries(Object.entries(answers).map(([name, r]) => [name, r.status]))).toEqual({
        anonymous: 401,
        wrongPassword: 401,
        page: 200,
        api: 200,
        asset: 200,
        unknownDashboardPath: 404,
        refusedWrite: 403,
        unknownPath: 404,
        health: 200,
      });
      for (const [name, response] of Object.entries(answers)) {
        expect({ name, ...securityHeadersOf(response.headers) }).toEqual({ name, ...SECURE });
      }
    });
  });

  it(`refuses an address with 429 after ${DASHBOARD_AUTH_FAILURES.points} wrong passwords, without checking the next one`, async () => {
    await withWorker(ENABLED, async (base, worker) => {
      await untilReady(base);
      const guesser = '127.0.0.2';
      for (let i = 0; i < DASHBOARD_AUTH_FAILURES.points; i++) {
        expect((await getFrom(guesser, `${base}/admin/queues/api/queues`, basic(USER, `guess-${i}`))).status).toBe(401);
      }
      expect(worker.log.events('queue_dashboard.auth_locked')).toMatchObject([{ address: expect.stringContaining(guesser) }]);
      const locked = await getFrom(guesser, `${base}/admin/queues/api/queues`, basic(USER, PASSWORD));
      expect(locked.status).toBe(429);
      const retryAfter = Number(locked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(DASHBOARD_AUTH_FAILURES.windowSeconds);
      expect(securityHeadersOf(locked.headers)).toEqual(SECURE);
      // Only that address: the operator elsewhere still gets in.
      expect((await getFrom('127.0.0.1', `${base}/admin/queues/api/queues`, basic(USER, PASSWORD))).status).toBe(200);
    });
  });

  it('counts consecutive failures: the right password clears an address, asking for the prompt is no guess', async () => {
    await withWorker(ENABLED, async (base) => {
      await untilReady(base);
      const operator = '127.0.0.3';
      const url = `${base}/admin/queues/api/queues`;
      const below = DASHBOARD_AUTH_FAILURES.points - 1;
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < below; i++) expect((await getFrom(operator, url, basic(USER, 'typo'))).status).toBe(401);
        expect((await getFrom(operator, url)).status).toBe(401);
        expect((await getFrom(operator, url, basic(USER, PASSWORD))).status).toBe(200);
      }
    });
  });
});
