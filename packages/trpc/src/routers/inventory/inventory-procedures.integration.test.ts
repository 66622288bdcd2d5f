// Happy paths and authorization of the seven inventory procedures, over the real HTTP endpoint
// with real sessions, Postgres and Redis.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { createInventoryItem } from '@staging/db/testing/factories';
import { seedInventoryWorld } from '../../testing/inventory-fixtures';
import type { InventoryWorld, SignedInUser } from '../../testing/inventory-fixtures';
import { dataOf, inventoryClient, ISO_INSTANT, outcomeOf, RECORD_KEYS } from '../../testing/inventory-calls';
import type { InventoryProcedure } from '../../testing/inventory-calls';
import { createTestDeps, openTestResources, startTestServer } from '../../testing/test-server';
import type { LogCapture, TestServer } from '../../testing/test-server';

const resources = openTestResources();
let now = new Date('2031-05-01T10:00:00.000Z');
let server: TestServer;
let logs: LogCapture;
let call: ReturnType<typeof inventoryClient>;
let world: InventoryWorld;

beforeAll(async () => {
  const test = createTestDeps(resources, { clock: () => now });
  logs = test.logs;
  server = await startTestServer(test.deps);
  call = inventoryClient(server.url);
});
afterAll(async () => {
  await server.close();
  await resources.close();
});
// A fresh world per test: fresh users mean fresh rate-limit counters, and no test sees another's rows.
beforeEach(async () => {
  world = await seedInventoryWorld(resources.db, { now });
});

describe('happy paths', () => {
  test('create returns the full record, trimmed and rounded to cents', async () => {
    const record = dataOf(
      await call(
        'create',
        {
          propertyUnitId: world.unitA,
          unitNumber: '  12B ',
          floor: 3,
          status: 'RESERVED',
          priceAdjustment: 1250.005,
          notes: 'corner unit\nsea view',
        },
        world.owner,
      ),
    );
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    expect(record).toEqual({
      itemId: expect.any(String),
      propertyUnitId: world.unitA,
      propertyId: world.propertyId,
      unitNumber: '12B',
      floor: 3,
      status: 'RESERVED',
      priceAdjustment: 1250.01,
      notes: 'corner unit\nsea view',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
  });

  test('create defaults: status AVAILABLE, nullable fields null', async () => {
    const record = dataOf(await call('create', { propertyUnitId: world.unitA, unitNumber: '1' }, world.assigned));
    expect(record).toMatchObject({ status: 'AVAILABLE', floor: null, priceAdjustment: null, notes: null });
  });

  test('update changes only the given fields; null clears; updatedAt moves', async () => {
    const created = dataOf(
      await call('create', { propertyUnitId: world.unitA, unitNumber: '5', floor: 2, priceAdjustment: 10, notes: 'n' }, world.owner),
    );
    now = new Date(now.getTime() + 60_000);
    const updated = dataOf(
      await call('update', { itemId: created.itemId, status: 'SOLD', priceAdjustment: null, notes: null }, world.assigned),
    );
    expect(updated).toEqual({
      ...created,
      status: 'SOLD',
      priceAdjustment: null,
      notes: null,
      updatedAt: now.toISOString(),
    });
    const renamed = dataOf(await call('update', { itemId: created.itemId, unitNumber: ' 5A ' }, world.owner));
    expect(renamed.unitNumber).toBe('5A');
  });

  test('update with nothing to change returns the item untouched', async () => {
    const created = dataOf(await call('create', { propertyUnitId: world.unitA, unitNumber: '9' }, world.owner));
    now = new Date(now.getTime() + 60_000);
    expect(dataOf(await call('update', { itemId: created.itemId }, world.owner))).toEqual(created);
  });

  test('update may empty unitNumber (SPEC.md 4.4 sets only a maximum on update)', async () => {
    const created = dataOf(await call('create', { propertyUnitId: world.unitA, unitNumber: '9' }, world.owner));
    expect(dataOf(await call('update', { itemId: created.itemId, unitNumber: '' }, world.owner)).unitNumber).toBe('');
  });

  test('delete returns the deleted record and the item is gone', async () => {
    const created = dataOf(await call('create', { propertyUnitId: world.unitB, unitNumber: '7' }, world.owner));
    expect(dataOf(await call('delete', { itemId: created.itemId }, world.owner))).toEqual(created);
    expect(outcomeOf(await call('delete', { itemId: created.itemId }, world.owner))).toEqual([404, 'NOT_FOUND']);
    expect(await resources.db.inventoryItem.count({ where: { id: created.itemId } })).toBe(0);
  });

  test('getUnits: units in creation order, items by unitNumber code points, empty units included', async () => {
    for (const unitNumber of ['b', '2', 'A', '10', 'a']) {
      await createInventoryItem(resources.db, { propertyUnitId: world.unitA, unitNumber });
    }
    const result = dataOf(await call('getUnits', { propertyId: world.propertyId }, world.owner));
    expect(result.propertyId).toBe(world.propertyId);
    expect(result.units.map((unit) => [unit.propertyUnitId, unit.name, unit.items.length])).toEqual([
      [world.unitA, 'A', 5],
      [world.unitB, 'B', 0],
    ]);
    expect(result.units[0]?.items.map((item) => item.unitNumber)).toEqual(['10', '2', 'A', 'a', 'b']);
    for (const item of result.units[0]?.items ?? []) {
      expect(Object.keys(item).sort()).toEqual(RECORD_KEYS);
      expect(item.createdAt).toMatch(ISO_INSTANT);
      expect(item.propertyId).toBe(world.propertyId);
    }
    expect(result.units[0]?.createdAt).toMatch(ISO_INSTANT);
  });

  test('getUnits of a property without units: an empty list, not NOT_FOUND', async () => {
    const result = dataOf(await call('getUnits', { propertyId: world.otherPropertyId }, world.unrelated));
    expect(result.units.map((unit) => unit.name)).toEqual(['Other']);
    await resources.db.propertyUnit.deleteMany({ where: { propertyId: world.otherPropertyId } });
    expect(dataOf(await call('getUnits', { propertyId: world.otherPropertyId }, world.unrelated))).toEqual({
      propertyId: world.otherPropertyId,
      units: [],
    });
  });

  test('bulkCreate, bulkUpdate and bulkDelete round trip', async () => {
    const created = dataOf(
      await call(
        'bulkCreate',
        { propertyId: world.propertyId, propertyUnitId: world.unitA, items: [{ unitNumber: '1' }, { unitNumber: '2', floor: 1 }] },
        world.owner,
      ),
    );
    expect(created.items.map((item) => [item.unitNumber, item.floor, item.propertyUnitId])).toEqual([
      ['1', null, world.unitA],
      ['2', 1, world.unitA],
    ]);
    const ids = created.items.map((item) => item.itemId);
    const updated = dataOf(await call('bulkUpdate', { ids, action: 'status', status: 'RENTED' }, world.assigned));
    expect(updated.items.map((item) => [item.itemId, item.status])).toEqual(ids.map((id) => [id, 'RENTED']));
    expect(dataOf(await call('bulkDelete', { ids: [...ids, ids[0]] }, world.owner))).toEqual({ itemIds: ids, count: 2 });
    expect(await resources.db.inventoryItem.count({ where: { id: { in: ids } } })).toBe(0);
  });
});

describe('authorization', () => {
  interface Case {
    procedure: InventoryProcedure;
    input: (w: InventoryWorld, itemId: string) => unknown;
  }
  const cases: Case[] = [
    { procedure: 'getUnits', input: (w) => ({ propertyId: w.propertyId }) },
    { procedure: 'create', input: (w) => ({ propertyUnitId: w.unitA, unitNumber: 'new' }) },
    { procedure: 'update', input: (_w, itemId) => ({ itemId, floor: 4 }) },
    { procedure: 'delete', input: (_w, itemId) => ({ itemId }) },
    { procedure: 'bulkCreate', input: (w) => ({ propertyUnitId: w.unitA, items: [{ unitNumber: 'new' }] }) },
    { procedure: 'bulkUpdate', input: (_w, itemId) => ({ ids: [itemId], action: 'floor', floor: 4 }) },
    { procedure: 'bulkDelete', input: (_w, itemId) => ({ ids: [itemId] }) },
  ];

  async function seededItem(): Promise<string> {
    return (await createInventoryItem(resources.db, { propertyUnitId: world.unitA, unitNumber: 'seeded' })).id;
  }

  test.each(cases)('$procedure without a session → UNAUTHORIZED', async ({ procedure, input }) => {
    const itemId = await seededItem();
    expect(outcomeOf(await call(procedure, input(world, itemId)))).toEqual([401, 'UNAUTHORIZED']);
    expect(outcomeOf(await call(procedure, input(world, itemId), { cookie: 'sid=forged-token' }))).toEqual([
      401,
      'UNAUTHORIZED',
    ]);
    expect(await resources.db.inventoryItem.count({ where: { unit: { propertyId: world.propertyId } } })).toBe(1);
  });

  test.each(cases)('$procedure by an unrelated agent → NOT_FOUND, nothing changes', async ({ procedure, input }) => {
    const itemId = await seededItem();
    const before = await resources.db.inventoryItem.findMany({ where: { unit: { propertyId: world.propertyId } } });
    const result = await call(procedure, input(world, itemId), world.unrelated);
    expect(outcomeOf(result)).toEqual([404, 'NOT_FOUND']);
    // Same answer as for an id that does not exist at all: existence is not revealed.
    expect(result.ok ? '' : result.error.message).toMatch(/^(Property|Property unit|Inventory item) not found$/);
    expect(await resources.db.inventoryItem.findMany({ where: { unit: { propertyId: world.propertyId } } })).toEqual(before);
  });

  test.each(cases)('$procedure by owner, assigned agent and admin succeeds', async ({ procedure, input }) => {
    for (const user of [world.owner, world.assigned, world.admin] satisfies SignedInUser[]) {
      const itemId = await createInventoryItem(resources.db, { propertyUnitId: world.unitB }).then((item) => item.id);
      const fresh = input(world, itemId);
      // Each caller creates its own unit number so that the three create calls do not collide.
      const distinct = JSON.parse(JSON.stringify(fresh).replaceAll('"new"', `"new-${user.id}"`)) as unknown;
      expect(outcomeOf(await call(procedure, distinct, user))).toEqual([200, 'OK']);
    }
  });

  test('an expired session is no session', async () => {
    await resources.db.session.updateMany({ where: { userId: world.owner.id }, data: { expiresAt: new Date(now.getTime() - 1) } });
    expect(outcomeOf(await call('getUnits', { propertyId: world.propertyId }, world.owner))).toEqual([401, 'UNAUTHORIZED']);
  });

  test('cookie-authenticated mutations from a foreign origin are refused; allowed origins pass', async () => {
    const input = { propertyUnitId: world.unitA, unitNumber: 'x1' };
    const foreign = await call('create', input, world.owner, { headers: { origin: 'https://evil.example' } });
    expect(outcomeOf(foreign)).toEqual([403, 'FORBIDDEN']);
    const crossSite = await call('create', input, world.owner, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(outcomeOf(crossSite)).toEqual([403, 'FORBIDDEN']);
    expect(await resources.db.inventoryItem.count({ where: { unitNumber: 'x1', propertyUnitId: world.unitA } })).toBe(0);
    const allowed = await call('create', input, world.owner, { headers: { origin: 'https://app.example.test' } });
    expect(outcomeOf(allowed)).toEqual([200, 'OK']);
    // Queries are not state-changing: a foreign origin may read (the browser still withholds the
    // response from the foreign page without CORS headers).
    const query = await call('getUnits', { propertyId: world.propertyId }, world.owner, {
      headers: { origin: 'https://evil.example' },
    });
    expect(outcomeOf(query)).toEqual([200, 'OK']);
  });
});

test('no request in this file was logged as a failure', () => {
  expect(logs.lines).toEqual([]);
});
