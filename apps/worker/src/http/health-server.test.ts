import { afterEach, describe, expect, it } from '@jest/globals';
import { memoryLogger } from '@staging/platform/testing/memory-logger';
import { startHealthServer } from './health-server';
import type { HealthServer } from './health-server';

let server: HealthServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function readyz(options: { accepting: boolean; databaseAnswers: boolean }) {
  server = await startHealthServer({
    port: 0,
    logger: memoryLogger('worker').logger,
    isAccepting: () => options.accepting,
    readinessChecks: {
      database: async () => {
        if (!options.databaseAnswers) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
      redis: async () => undefined,
    },
  });
  const answer = await fetch(`http://127.0.0.1:${server.port}/readyz`);
  return { status: answer.status, cacheControl: answer.headers.get('cache-control'), body: (await answer.json()) as unknown };
}

describe('worker /readyz', () => {
  it('is ready while its dependencies answer and the consumer runs', async () => {
    expect(await readyz({ accepting: true, databaseAnswers: true })).toEqual({
      status: 200,
      cacheControl: 'no-store',
      body: { status: 'ready', checks: { database: 'ok', redis: 'ok', consumer: 'ok' } },
    });
  });

  it('is not ready once a shutdown began, so the load balancer stops sending it work', async () => {
    expect(await readyz({ accepting: false, databaseAnswers: true })).toEqual({
      status: 503,
      cacheControl: 'no-store',
      body: { status: 'not_ready', checks: { database: 'ok', redis: 'ok', consumer: 'failed' } },
    });
  });

  it('names the dependency that failed without its error', async () => {
    expect(await readyz({ accepting: true, databaseAnswers: false })).toEqual({
      status: 503,
      cacheControl: 'no-store',
      body: { status: 'not_ready', checks: { database: 'failed', redis: 'ok', consumer: 'ok' } },
    });
  });
});
