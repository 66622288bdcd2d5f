// Every route of the worker's HTTP server (health, readiness and the queue dashboard, enumerated
// from its Express app and bull-board's router) receives the requests of a careless or hostile
// client (tools/stack hostile-requests.ts) against a real worker process, with and without the
// dashboard's credentials. The process stays up, no answer is a 5xx, and a 4xx carries the JSON
// error body.
import type { Queue } from 'bullmq';
import { createDashboardRouter } from '../src/dashboard/dashboard-router';
import { createHealthApp } from '../src/http/health-server';
import { expressRoutes, hostileCasesFor, isRestErrorBody, judgeAnswer, slowHeadersCase } from '@staging/stack/hostile-requests';
import { sendRaw } from '@staging/stack/raw-http';
import { memoryLogger } from '@staging/platform/testing/memory-logger';
import { startTestStack } from './support/test-stack';
import type { TestStack } from './support/test-stack';
import type { WorkerProcess } from './support/worker-process';

const USER = 'ops';
const PASSWORD = 'hostile-suite-dashboard-secret';
const DASHBOARD = { QUEUE_DASHBOARD_USER: USER, QUEUE_DASHBOARD_PASSWORD: PASSWORD };

let stack: TestStack;
let worker: WorkerProcess;

beforeAll(async () => {
  stack = await startTestStack();
  worker = await stack.spawnReadyWorker({ env: stack.env(DASHBOARD) });
});
afterAll(async () => {
  await stack?.close();
});

/** The worker's routes, read from the same app and dashboard router the process serves. */
function routesUnderTest(): { method: string; path: string }[] {
  const { logger } = memoryLogger('worker-hostile-test');
  const config = stack.config(DASHBOARD);
  const dashboard = createDashboardRouter({
    config: config.dashboard!,
    queues: [stack.queue as unknown as Queue],
    redis: stack.redis,
    queueSuffix: stack.suffix,
    logger,
  });
  const app = createHealthApp({ logger, readinessChecks: {}, isAccepting: () => true, dashboard });
  const samples: Record<string, string> = { queueName: stack.queueName, jobId: '1' };
  return expressRoutes(app).map((route) => ({
    method: route.method,
    path: route.path.replace(/:(\w+)\??/g, (_match, name: string) => encodeURIComponent(samples[name] ?? 'x')),
  }));
}

/**
 * bull-board's own api answers its errors as `{ "error": { "key": "ERRORS.…" } }`, which its UI
 * reads; the rest of the server uses the api's body.
 */
function documentedBody(path: string): (body: Buffer) => boolean {
  if (!path.startsWith('/admin/queues/api/')) return isRestErrorBody;
  return (body) => {
    if (isRestErrorBody(body)) return true;
    try {
      return typeof (JSON.parse(body.toString('utf8')) as { error?: { key?: unknown } }).error?.key === 'string';
    } catch {
      return false;
    }
  };
}

it('every route survives every hostile request, with the dashboard password and without', async () => {
  const origin = `http://127.0.0.1:${worker.port}`;
  const routes = routesUnderTest();
  expect(routes.some((route) => route.path.startsWith('/admin/queues/api/'))).toBe(true);
  const failures: string[] = [];
  const casesPerRoute = new Map<string, number>();
  const slow = sendRaw(origin, slowHeadersCase({ method: 'GET', path: '/healthz' }).request);
  const authorization = `Authorization: Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  for (const headerLines of [[], [authorization]]) {
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const cases = hostileCasesFor(route, { headerLines });
      casesPerRoute.set(label, (casesPerRoute.get(label) ?? 0) + cases.length);
      for (const hostileCase of cases) {
        const answer = await sendRaw(origin, hostileCase.request).catch((error: unknown) => error as Error);
        const verdict = answer instanceof Error ? `${answer.message} (worker exited: ${String(worker.child.exitCode)})` : judgeAnswer(hostileCase, answer, documentedBody(route.path), { path: route.path });
        if (verdict !== undefined) failures.push(`${label} ${headerLines.length === 0 ? 'anonymous' : 'with the password'}, ${hostileCase.name}: ${verdict}`);
      }
    }
  }
  process.stdout.write(`hostile-client cases per worker route:\n${[...casesPerRoute].map(([label, n]) => `  ${n}\t${label}`).join('\n')}\n`);
  expect(failures).toEqual([]);
  expect((await slow).status).toBe(200);
  expect(worker.child.exitCode).toBeNull();
});
