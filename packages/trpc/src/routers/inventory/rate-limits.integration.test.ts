// docs/system.md 4.4 rate limits over HTTP: bucket 'inventory', per user and procedure, 60-second
// window, counted in Redis and therefore shared by every server instance.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { Redis } from 'ioredis';
import { createPropertyUnit } from '@staging/db/testing/factories';
import { PROCEDURE_LIMITS } from '@staging/http-edge/request-limits';
import { seedInventoryWorld } from '../../testing/inventory-fixtures';
import type { InventoryWorld } from '../../testing/inventory-fixtures';
import { dataOf, inventoryClient, outcomeOf } from '../../testing/inventory-calls';
import type { InventoryProcedure, UnitProcedure } from '../../testing/inventory-calls';
import { createTestDeps, env, openTestResources, startTestServer } from '../../testing/test-server';
import type { LogCapture, TestServer } from '../../testing/test-server';

const resources = openTestResources();
let server: TestServer;
let logs: LogCapture;
let queueSuffix: string;
let call: ReturnType<typeof inventoryClient>;
let world: InventoryWorld;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const test = createTestDeps(resources);
  logs = test.logs;
  queueSuffix = test.deps.queueSuffix;
  server = await startTestServer(test.deps);
  call = inventoryClient(server.url);
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await server.close();
  await resources.close();
});
beforeEach(async () => {
  world = await seedInventoryWorld(resources.db);
});

/** `count` items in unit A, numbered 0..count-1, for procedures that consume an item per call. */
async function seedItems(count: number): Promise<string[]> {
  const rows = await resources.db.inventoryItem.createManyAndReturn({
    data: Array.from({ length: count }, (_, i) => ({ propertyUnitId: world.unitA, unitNumber: `rl-${i}` })),
    select: { id: true, unitNumber: true },
  });
  return rows.sort((a, b) => Number(a.unitNumber.slice(3)) - Number(b.unitNumber.slice(3))).map((row) => row.id);
}

/** A valid input for the i-th call of each procedure, so every refused call is refused by the limit. */
const validInput: Record<InventoryProcedure, (w: InventoryWorld, ids: string[], i: number) => unknown> = {
  getUnits: (w) => ({ propertyId: w.propertyId }),
  create: (w, _ids, i) => ({ propertyUnitId: w.unitB, unitNumber: `c-${i}` }),
  update: (_w, ids, i) => ({ itemId: ids[0], floor: i }),
  delete: (_w, ids, i) => ({ itemId: ids[i] }),
  bulkCreate: (w, _ids, i) => ({ propertyUnitId: w.unitB, items: [{ unitNumber: `b-${i}` }] }),
  bulkUpdate: (_w, ids, i) => ({ ids: ids.slice(0, 3), action: 'floor', floor: i }),
  bulkDelete: (_w, ids, i) => ({ ids: [ids[i]] }),
};

function expectTooManyRequests(result: Awaited<ReturnType<typeof call>>): void {
  expect(outcomeOf(result)).toEqual([429, 'TOO_MANY_REQUESTS']);
  if (result.ok) return;
  const retryAfter = result.error.data.retryAfterSeconds;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(result.headers.get('retry-after')).toBe(String(retryAfter));
}

describe('limits per procedure within 60 s', () => {
  test.each([
    ['create', 10],
    ['getUnits', 20],
    ['update', 20],
    ['delete', 20],
    ['bulkCreate', 20],
    ['bulkUpdate', 20],
    ['bulkDelete', 20],
  ] as const)('%s: call %i + 1 is TOO_MANY_REQUESTS and changes nothing', async (procedure, limit) => {
    const ids = await seedItems(limit + 1);
    for (let i = 0; i < limit; i += 1) {
      expect([i, outcomeOf(await call(procedure, validInput[procedure](world, ids, i), world.owner))]).toEqual([i, [200, 'OK']]);
    }
    const before = await resources.db.inventoryItem.findMany({ where: { unit: { propertyId: world.propertyId } }, orderBy: { id: 'asc' } });
    expectTooManyRequests(await call(procedure, validInput[procedure](world, ids, limit), world.owner));
    const after = await resources.db.inventoryItem.findMany({ where: { unit: { propertyId: world.propertyId } }, orderBy: { id: 'asc' } });
    expect(after).toEqual(before);
  });
});

describe('unit procedures: the table entries hold over HTTP', () => {
  /** A valid input for the i-th call; `unitIds` are empty units, one per call deleteUnit makes. */
  const validUnitInput: Record<UnitProcedure, (w: InventoryWorld, unitIds: string[], i: number) => unknown> = {
    createUnit: (w, _unitIds, i) => ({ propertyId: w.propertyId, name: `Tower ${i}` }),
    renameUnit: (w, _unitIds, i) => ({ propertyUnitId: w.unitA, name: `Block ${i}` }),
    deleteUnit: (_w, unitIds, i) => ({ propertyUnitId: unitIds[i] }),
  };

  test.each(['createUnit', 'renameUnit', 'deleteUnit'] as const)('%s: the call past its table limit is TOO_MANY_REQUESTS and changes nothing', async (procedure) => {
    const limit = PROCEDURE_LIMITS[`inventory.${procedure}`].points;
    const unitIds: string[] = [];
    for (let i = 0; i <= limit; i += 1) unitIds.push((await createPropertyUnit(resources.db, { propertyId: world.propertyId, name: `Empty ${i}` })).id);
    for (let i = 0; i < limit; i += 1) {
      expect([i, outcomeOf(await call(procedure, validUnitInput[procedure](world, unitIds, i), world.owner))]).toEqual([i, [200, 'OK']]);
    }
    const units = () => resources.db.propertyUnit.findMany({ where: { propertyId: world.propertyId }, orderBy: { id: 'asc' } });
    const before = await units();
    expectTooManyRequests(await call(procedure, validUnitInput[procedure](world, unitIds, limit), world.owner));
    expect(await units()).toEqual(before);
  });
});

test('counters are per user and per procedure', async () => {
  for (let i = 0; i < 10; i += 1) await call('create', validInput.create(world, [], i), world.owner);
  expectTooManyRequests(await call('create', validInput.create(world, [], 10), world.owner));
  expect(outcomeOf(await call('bulkCreate', validInput.bulkCreate(world, [], 0), world.owner))).toEqual([200, 'OK']);
  expect(outcomeOf(await call('create', validInput.create(world, [], 11), world.assigned))).toEqual([200, 'OK']);
});

test('invalid calls count too: the limit runs before input validation', async () => {
  for (let i = 0; i < 10; i += 1) {
    expect(outcomeOf(await call('create', { propertyUnitId: world.unitA, unitNumber: '' }, world.owner))).toEqual([400, 'BAD_REQUEST']);
  }
  expectTooManyRequests(await call('create', validInput.create(world, [], 0), world.owner));
});

test('the limit is shared by two server instances with their own Redis connections', async () => {
  const otherRedis = new Redis(env('VALKEY_URL'));
  const other = createTestDeps(resources, { queueSuffix, redis: otherRedis });
  const otherServer = await startTestServer(other.deps);
  cleanups.push(async () => {
    await otherServer.close();
    otherRedis.disconnect();
  });
  const callOther = inventoryClient(otherServer.url);
  for (let i = 0; i < 10; i += 1) {
    const target = i % 2 === 0 ? call : callOther;
    expect(outcomeOf(await target('create', validInput.create(world, [], i), world.owner))).toEqual([200, 'OK']);
  }
  expectTooManyRequests(await callOther('create', validInput.create(world, [], 10), world.owner));
  expectTooManyRequests(await call('create', validInput.create(world, [], 11), world.owner));
  expect(other.logs.lines).toEqual([]);
});

test('when the window ends, calls are accepted again (short window through the same code path)', async () => {
  // Long enough that eleven calls fit in one window on a busy machine (2 s did not).
  const short = createTestDeps(resources, { rateLimitWindowSeconds: 8 });
  const shortServer = await startTestServer(short.deps);
  cleanups.push(() => shortServer.close());
  const callShort = inventoryClient(shortServer.url);
  for (let i = 0; i < 10; i += 1) await callShort('create', validInput.create(world, [], i), world.owner);
  const refused = await callShort('create', validInput.create(world, [], 10), world.owner);
  expect(outcomeOf(refused)).toEqual([429, 'TOO_MANY_REQUESTS']);
  const retryAfter = refused.ok ? 0 : (refused.error.data.retryAfterSeconds ?? 0);
  expect(retryAfter).toBeLessThanOrEqual(8);
  await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
  expect(dataOf(await callShort('create', validInput.create(world, [], 10), world.owner)).unitNumber).toBe('c-10');
});

test('keys live under rl:inventory<QUEUE_SUFFIX> as <userId>:<procedure> with a 60 s expiry', async () => {
  await call('getUnits', validInput.getUnits(world, [], 0), world.owner);
  const key = `rl:inventory${queueSuffix}:${world.owner.id}:getUnits`;
  expect(await resources.redis.get(key)).toBe('1');
  const ttl = await resources.redis.pttl(key);
  expect(ttl).toBeGreaterThan(50_000);
  expect(ttl).toBeLessThanOrEqual(60_000);
});

test('Redis unreachable: calls are let through and the limiter failure is logged once, not per call', async () => {
  // Nothing listens on port 1: the connection never becomes ready.
  const deadRedis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, retryStrategy: () => null });
  deadRedis.on('error', () => undefined);
  await new Promise((resolve) => deadRedis.once('end', resolve));
  // Only the limiter's connection is dead (deps.redis); the rest of the deps stay healthy.
  const dead = createTestDeps(resources, { redis: deadRedis });
  const deadServer = await startTestServer(dead.deps);
  // No disconnect: the client has ended for good, and disconnect() on an ended ioredis client
  // leaves a handle behind that keeps Jest from exiting.
  cleanups.push(() => deadServer.close());
  const callDead = inventoryClient(deadServer.url);
  // More calls than the limit: none is refused, and the outage is one log line, not one per call.
  for (let i = 0; i < 11; i += 1) {
    expect([i, outcomeOf(await callDead('create', validInput.create(world, [], i), world.owner))]).toEqual([i, [200, 'OK']]);
  }
  expect(dead.logs.lines.map((line) => line['msg'])).toEqual(['rate limiter unavailable; request allowed']);
});

test('no request of the main server was logged as a failure', () => {
  expect(logs.lines).toEqual([]);
});
