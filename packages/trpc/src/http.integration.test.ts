// The transport helpers: the Node handler (Express / node:http), batching, body limits, headers,
// and what a client sees when something fails inside.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createDb } from '@staging/db/client';
import { MISSING_DATABASE_NAME, missingDatabaseUrl } from '@staging/db/testing/broken-database-urls';
import { seedInventoryWorld } from './testing/inventory-fixtures';
import type { InventoryWorld } from './testing/inventory-fixtures';
import { dataOf, inventoryClient, outcomeOf } from './testing/inventory-calls';
import { openLiveStream } from './testing/live-stream';
import { callProcedure, createSignedInUser, createTestDeps, env, openTestResources, startTestServer } from './testing/test-server';
import type { LogCapture, TestServer } from './testing/test-server';
import { createTrpcFetchHandler, createTrpcNodeHandler, MAX_BATCH_SIZE } from './http';
import type { TrpcDeps } from './context';
import { LIVE_STREAM_LIMITS } from '@staging/services/live/staging-event-hub';

const resources = openTestResources();
let logs: LogCapture;
let world: InventoryWorld;
let nodeServer: Server;
let nodeUrl: string;
let fetchServer: TestServer;
let fetchDeps: TrpcDeps;

beforeAll(async () => {
  const test = createTestDeps(resources);
  logs = test.logs;
  world = await seedInventoryWorld(resources.db);
  // Mounted like Express does it (prefix stripped from req.url) and like a bare server (not).
  const handler = createTrpcNodeHandler(test.deps, { maxBodyBytes: 64 * 1024 });
  nodeServer = createServer((req, res) => {
    if (req.url?.startsWith('/mounted/')) req.url = req.url.slice('/mounted'.length);
    void handler(req, res);
  });
  await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve));
  nodeUrl = `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`;
  fetchDeps = test.deps;
  fetchServer = await startTestServer(test.deps);
});
afterAll(async () => {
  nodeServer.closeAllConnections();
  await new Promise((resolve) => nodeServer.close(resolve));
  await fetchServer.close();
  await fetchDeps.stagingEvents.close();
  await resources.close();
});

describe('Node handler', () => {
  test('serves the router at any mount path', async () => {
    for (const base of [`${nodeUrl}/api/trpc`, `${nodeUrl}/mounted`]) {
      const call = inventoryClient(base);
      const created = dataOf(await call('create', { propertyUnitId: world.unitA, unitNumber: base }, world.owner));
      expect(created.unitNumber).toBe(base);
    }
  });

  test('a body over the limit is 413 PAYLOAD_TOO_LARGE', async () => {
    const call = inventoryClient(`${nodeUrl}/api/trpc`);
    const items = Array.from({ length: 500 }, (_, i) => ({ unitNumber: `${i}-${'x'.repeat(150)}` }));
    const result = await call('bulkCreate', { propertyUnitId: world.unitA, items }, world.assigned);
    expect(outcomeOf(result)).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  test("a user's live streams are private, and one past the per-user limit is 429 with Retry-After before it opens", async () => {
    const user = await createSignedInUser(resources.db);
    const streams = [];
    try {
      for (let i = 0; i < LIVE_STREAM_LIMITS.maxStreamsPerUser; i += 1) {
        const stream = await openLiveStream(`${nodeUrl}/api/trpc`, 'ai.stagingEvents', { cookie: user.cookie });
        streams.push(stream);
        await stream.waitFor((event) => event.event === 'message');
        expect([stream.status, stream.headers.get('cache-control'), stream.headers.get('vary')]).toEqual([200, 'private, no-store, no-transform', 'Cookie']);
      }
      const refused = await openLiveStream(`${nodeUrl}/api/trpc`, 'ai.stagingEvents', { cookie: user.cookie });
      streams.push(refused);
      expect([refused.status, refused.headers.get('retry-after'), refused.headers.get('cache-control'), refused.headers.get('vary')]).toEqual([
        429,
        '60',
        'private, no-store, no-transform',
        'Cookie',
      ]);
      const anonymous = await openLiveStream(`${nodeUrl}/api/trpc`, 'ai.stagingEvents');
      streams.push(anonymous);
      expect(anonymous.status).toBe(401);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

describe('fetch handler', () => {
  test('a body over the default 1 MiB limit is 413, even without Content-Length', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode(`{"propertyId":"${'p'.repeat(256 * 1024)}`);
        for (let i = 0; i < 5; i += 1) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    // Straight into the handler (as a Next.js route handler would call it): over a socket the
    // server answers before the upload ends and the client sees a reset instead of the answer.
    const handler = createTrpcFetchHandler(fetchDeps);
    const response = await handler(
      new Request('http://localhost/api/trpc/inventory.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: world.admin.cookie },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { data: { appCode: string } } }).error.data.appCode).toBe('PAYLOAD_TOO_LARGE');
  });

  test('batches answer each call with its own result; batches over the limit are refused', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: { propertyId: world.propertyId }, 1: { propertyId: 'nope' } }));
    const response = await fetch(`${fetchServer.url}/inventory.getUnits,inventory.getUnits?batch=1&input=${input}`, {
      headers: { cookie: world.owner.cookie },
    });
    expect(response.status).toBe(207);
    const body = (await response.json()) as { result?: unknown; error?: { data: { appCode: string } } }[];
    expect(body.map((entry) => (entry.result ? 'OK' : entry.error?.data.appCode))).toEqual(['OK', 'NOT_FOUND']);
    const paths = Array.from({ length: MAX_BATCH_SIZE + 1 }, () => 'inventory.getUnits').join(',');
    const tooMany = await fetch(`${fetchServer.url}/${paths}?batch=1&input=%7B%7D`, { headers: { cookie: world.owner.cookie } });
    expect(tooMany.status).toBe(400);
  });

  test('answers are never cached', async () => {
    const result = await callProcedure(fetchServer.url, 'query', 'inventory.getUnits', { propertyId: world.propertyId }, {
      cookie: world.owner.cookie,
    });
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  test('an unknown procedure is a 404 with our code', async () => {
    const result = await callProcedure(fetchServer.url, 'query', 'inventory.nope', {}, { cookie: world.owner.cookie });
    expect(outcomeOf(result)).toEqual([404, 'NOT_FOUND']);
  });
});

test('a failure inside is a 500 with a fixed message, no detail, and is logged with its cause', async () => {
  const brokenDb = createDb(missingDatabaseUrl(env('DATABASE_URL')), { maxConnections: 1 });
  const broken = createTestDeps({ ...resources, db: brokenDb });
  const server = await startTestServer(broken.deps);
  try {
    const result = await callProcedure(server.url, 'query', 'inventory.getUnits', { propertyId: world.propertyId }, {
      cookie: world.owner.cookie,
    });
    expect(result.status).toBe(500);
    expect(result.ok ? null : [result.error.message, result.error.data.appCode]).toEqual(['Internal server error', 'INTERNAL']);
    expect(JSON.stringify(result)).not.toMatch(new RegExp(`${MISSING_DATABASE_NAME}|stack|prisma`, 'i'));
    expect(broken.logs.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(broken.logs.lines)).toContain(MISSING_DATABASE_NAME);
  } finally {
    await server.close();
    await brokenDb.$disconnect();
  }
});

test('nothing else was logged as a failure', () => {
  expect(logs.lines).toEqual([]);
});
