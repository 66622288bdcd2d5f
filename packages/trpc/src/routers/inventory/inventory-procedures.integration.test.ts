// Happy paths and authorization of the seven inventory procedures, over the real HTTP endpoint
// with real sessions, Postgres and Redis.
import { describe, expect, test } from '@jest/globals';
import { createInventoryItem } from '@staging/db/testing/factories';
import type { InventoryWorld, SignedInUser } from '../../testing/inventory-fixtures';
import { dataOf, ISO_INSTANT, outcomeOf, RECORD_KEYS } from '../../testing/inventory-calls';
import type { InventoryProcedure } from '../../testing/inventory-calls';
import { useInventoryTestContext } from '../../testing/inventory-test-context';

let now = new Date('2031-05-01T10:00:00.000Z');
const ctx = useInventoryTestContext({ now: () => now });

describe('happy paths', () => {
  test('create returns the full record, trimmed and rounded to cents', async () => {
    const record = dataOf(
      await ctx.call(
        'create',
        {
          propertyUnitId: ctx.world.unitA,
          unitNumber: '  12B ',
          floor: 3,
          status: 'RESERVED',
          priceAdjustment: 1250.005,
          notes: 'corner unit\nsea view',
        },
        ctx.world.owner,
      ),
    );
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    expect(record).toEqual({
      itemId: expect.any(String),
      propertyUnitId: ctx.world.unitA,
      propertyId: ctx.world.propertyId,
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
    const record = dataOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: '1' }, ctx.world.assigned));
    expect(record).toMatchObject({ status: 'AVAILABLE', floor: null, priceAdjustment: null, notes: null });
  });

  test('update changes only the given fields; null clears; updatedAt moves', async () => {
    const created = dataOf(
      await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: '5', floor: 2, priceAdjustment: 10, notes: 'n' }, ctx.world.owner),
    );
    now = new Date(now.getTime() + 60_000);
    const updated = dataOf(
      await ctx.call('update', { itemId: created.itemId, status: 'SOLD', priceAdjustment: null, notes: null }, ctx.world.assigned),
    );
    expect(updated).toEqual({
      ...created,
      status: 'SOLD',
      priceAdjustment: null,
      notes: null,
      updatedAt: now.toISOString(),
    });
    const renamed = dataOf(await ctx.call('update', { itemId: created.itemId, unitNumber: ' 5A ' }, ctx.world.owner));
    expect(renamed.unitNumber).toBe('5A');
  });

  test('update with nothing to change returns the item untouched', async () => {
    const created = dataOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: '9' }, ctx.world.owner));
    now = new Date(now.getTime() + 60_000);
    expect(dataOf(await ctx.call('update', { itemId: created.itemId }, ctx.world.owner))).toEqual(created);
  });

  test('update may empty unitNumber (docs/system.md 4.4 sets only a maximum on update)', async () => {
    const created = dataOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: '9' }, ctx.world.owner));
    expect(dataOf(await ctx.call('update', { itemId: created.itemId, unitNumber: '' }, ctx.world.owner)).unitNumber).toBe('');
  });

  test('delete returns the deleted record and the item is gone', async () => {
    const created = dataOf(await ctx.call('create', { propertyUnitId: ctx.world.unitB, unitNumber: '7' }, ctx.world.owner));
    expect(dataOf(await ctx.call('delete', { itemId: created.itemId }, ctx.world.owner))).toEqual(created);
    expect(outcomeOf(await ctx.call('delete', { itemId: created.itemId }, ctx.world.owner))).toEqual([404, 'NOT_FOUND']);
    expect(await ctx.db.inventoryItem.count({ where: { id: created.itemId } })).toBe(0);
  });

  test('getUnits: units in creation order, items by unitNumber code points, empty units included', async () => {
    for (const unitNumber of ['b', '2', 'A', '10', 'a']) {
      await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber });
    }
    const result = dataOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner));
    expect(result.propertyId).toBe(ctx.world.propertyId);
    expect(result.units.map((unit) => [unit.propertyUnitId, unit.name, unit.items.length])).toEqual([
      [ctx.world.unitA, 'A', 5],
      [ctx.world.unitB, 'B', 0],
    ]);
    expect(result.units[0]?.items.map((item) => item.unitNumber)).toEqual(['10', '2', 'A', 'a', 'b']);
    for (const item of result.units[0]?.items ?? []) {
      expect(Object.keys(item).sort()).toEqual(RECORD_KEYS);
      expect(item.createdAt).toMatch(ISO_INSTANT);
      expect(item.propertyId).toBe(ctx.world.propertyId);
    }
    expect(result.units[0]?.createdAt).toMatch(ISO_INSTANT);
  });

  test('getUnits of a property without units: an empty list, not NOT_FOUND', async () => {
    const result = dataOf(await ctx.call('getUnits', { propertyId: ctx.world.otherPropertyId }, ctx.world.unrelated));
    expect(result.units.map((unit) => unit.name)).toEqual(['Other']);
    await ctx.db.propertyUnit.deleteMany({ where: { propertyId: ctx.world.otherPropertyId } });
    expect(dataOf(await ctx.call('getUnits', { propertyId: ctx.world.otherPropertyId }, ctx.world.unrelated))).toEqual({
      propertyId: ctx.world.otherPropertyId,
      units: [],
    });
  });

  test('bulkCreate, bulkUpdate and bulkDelete round trip', async () => {
    // Milliseconds that a sloppy timestamp format would drop or pad differently.
    now = new Date(Math.floor(now.getTime() / 1000) * 1000 + 1007);
    const created = dataOf(
      await ctx.call(
        'bulkCreate',
        { propertyId: ctx.world.propertyId, propertyUnitId: ctx.world.unitA, items: [{ unitNumber: '1' }, { unitNumber: '2', floor: 1 }] },
        ctx.world.owner,
      ),
    );
    expect(created.items.map((item) => [item.unitNumber, item.floor, item.propertyUnitId])).toEqual([
      ['1', null, ctx.world.unitA],
      ['2', 1, ctx.world.unitA],
    ]);
    const ids = created.items.map((item) => item.itemId);
    // The bulk statements build records in SQL; each must read exactly as the single-item path's.
    const single = dataOf(await ctx.call('update', { itemId: ids[1]! }, ctx.world.owner));
    expect(Object.keys(created.items[1]!)).toEqual(Object.keys(single));
    expect(created.items[1]).toEqual(single);
    expect(single).toMatchObject({ createdAt: now.toISOString(), updatedAt: now.toISOString() });
    now = new Date(now.getTime() + 993);
    const updated = dataOf(await ctx.call('bulkUpdate', { ids, action: 'status', status: 'RENTED' }, ctx.world.assigned));
    expect(updated.items.map((item) => [item.itemId, item.status])).toEqual(ids.map((id) => [id, 'RENTED']));
    expect(updated.items[0]).toEqual({ ...created.items[0], status: 'RENTED', updatedAt: now.toISOString() });
    expect(Object.keys(updated.items[0]!)).toEqual(Object.keys(single));
    expect(dataOf(await ctx.call('bulkDelete', { ids: [...ids, ids[0]] }, ctx.world.owner))).toEqual({ itemIds: ids, count: 2 });
    expect(await ctx.db.inventoryItem.count({ where: { id: { in: ids } } })).toBe(0);
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
    return (await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: 'seeded' })).id;
  }

  test.each(cases)('$procedure without a session → UNAUTHORIZED', async ({ procedure, input }) => {
    const itemId = await seededItem();
    expect(outcomeOf(await ctx.call(procedure, input(ctx.world, itemId)))).toEqual([401, 'UNAUTHORIZED']);
    expect(outcomeOf(await ctx.call(procedure, input(ctx.world, itemId), { cookie: 'sid=forged-token' }))).toEqual([
      401,
      'UNAUTHORIZED',
    ]);
    expect(await ctx.db.inventoryItem.count({ where: { unit: { propertyId: ctx.world.propertyId } } })).toBe(1);
  });

  test.each(cases)('$procedure by an unrelated agent → NOT_FOUND, nothing changes', async ({ procedure, input }) => {
    const itemId = await seededItem();
    const before = await ctx.db.inventoryItem.findMany({ where: { unit: { propertyId: ctx.world.propertyId } } });
    const result = await ctx.call(procedure, input(ctx.world, itemId), ctx.world.unrelated);
    expect(outcomeOf(result)).toEqual([404, 'NOT_FOUND']);
    // Same answer as for an id that does not exist at all: existence is not revealed.
    expect(result.ok ? '' : result.error.message).toMatch(/^(Property|Property unit|Inventory item) not found$/);
    expect(await ctx.db.inventoryItem.findMany({ where: { unit: { propertyId: ctx.world.propertyId } } })).toEqual(before);
  });

  test.each(cases)('$procedure by owner, assigned agent and admin succeeds', async ({ procedure, input }) => {
    for (const user of [ctx.world.owner, ctx.world.assigned, ctx.world.admin] satisfies SignedInUser[]) {
      const itemId = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitB }).then((item) => item.id);
      const fresh = input(ctx.world, itemId);
      // Each caller creates its own unit number so that the three create calls do not collide.
      const distinct = JSON.parse(JSON.stringify(fresh).replaceAll('"new"', `"new-${user.id}"`)) as unknown;
      expect(outcomeOf(await ctx.call(procedure, distinct, user))).toEqual([200, 'OK']);
    }
  });

  test('an expired session is no session', async () => {
    await ctx.db.session.updateMany({ where: { userId: ctx.world.owner.id }, data: { expiresAt: new Date(now.getTime() - 1) } });
    expect(outcomeOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner))).toEqual([401, 'UNAUTHORIZED']);
  });

  test('cookie-authenticated mutations from a foreign origin are refused; allowed origins pass', async () => {
    const input = { propertyUnitId: ctx.world.unitA, unitNumber: 'x1' };
    const foreign = await ctx.call('create', input, ctx.world.owner, { headers: { origin: 'https://evil.example' } });
    expect(outcomeOf(foreign)).toEqual([403, 'FORBIDDEN']);
    const crossSite = await ctx.call('create', input, ctx.world.owner, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(outcomeOf(crossSite)).toEqual([403, 'FORBIDDEN']);
    expect(await ctx.db.inventoryItem.count({ where: { unitNumber: 'x1', propertyUnitId: ctx.world.unitA } })).toBe(0);
    const allowed = await ctx.call('create', input, ctx.world.owner, { headers: { origin: 'https://app.example.test' } });
    expect(outcomeOf(allowed)).toEqual([200, 'OK']);
    // Queries are not state-changing: a foreign origin may read (the browser still withholds the
    // response from the foreign page without CORS headers).
    const query = await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner, {
      headers: { origin: 'https://evil.example' },
    });
    expect(outcomeOf(query)).toEqual([200, 'OK']);
  });
});

test('no request in this file was logged as a failure', () => {
  expect(ctx.logs.lines).toEqual([]);
});
