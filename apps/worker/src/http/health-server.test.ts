import { afterEach, describe, expect, it } from '@jest/globals';
import { memoryLogger } from '@staging/platform/testing/memory-logger';
import { sendRaw } from '@staging/stack/raw-http';
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

describe('a request whose body length cannot be known', () => {
  it.each([
    ['GET /healthz', 'GET', '/healthz', ''],
    ['POST to an unknown path', 'POST', '/nowhere', '{"a":1}'],
  ])('%s with Transfer-Encoding: xchunked gets one 400 and a closed connection, as on the api', async (_name, method, path, body) => {
    server = await startHealthServer({ port: 0, logger: memoryLogger('worker').logger, isAccepting: () => true, readinessChecks: {} });
    const answer = await sendRaw(`http://127.0.0.1:${server.port}`, {
      pieces: [`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: xchunked\r\n\r\n${body}`],
      hangGuardMs: 30_000,
    });
    expect(answer.hung).toBeUndefined();
    expect([answer.status, answer.headers.connection, JSON.parse(answer.body.toString('utf8'))]).toEqual([
      400,
      'close',
      { error: { code: 'BAD_REQUEST', message: 'Malformed HTTP request' } },
    ]);
    expect(answer.afterAnswer.toString('latin1')).toBe('');
  });
});
