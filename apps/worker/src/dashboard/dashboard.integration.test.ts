import { startTestStack } from '../../test/support/test-stack';
import type { RunningWorker, TestStack } from '../../test/support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack.close();
});

const USER = 'ops';
const PASSWORD = 'dashboard-secret-for-tests';

function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
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
});
