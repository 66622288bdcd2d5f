// bulkCreate unit resolution, every bulkUpdate action/type combination, and all-or-nothing bulk
// writes, over HTTP.
import { describe, expect, test } from '@jest/globals';
import { setTimeout as delay } from 'node:timers/promises';
import { sqlPoolOf } from '@staging/db/client';
import type { SqlPool } from '@staging/db/client';
import { createInventoryItem } from '@staging/db/testing/factories';
import { dataOf, issuePathsOf, outcomeOf } from '../../testing/inventory-calls';
import { useInventoryTestContext } from '../../testing/inventory-test-context';
import type { CallResult } from '../../testing/test-server';

const ctx = useInventoryTestContext();

const snapshot = () =>
  ctx.db.inventoryItem.findMany({
    where: { unit: { propertyId: { in: [ctx.world.propertyId, ctx.world.otherPropertyId] } } },
    orderBy: { id: 'asc' },
  });

describe('bulkCreate unit resolution', () => {
  test("an item's propertyUnitId wins over the top-level one", async () => {
    const result = dataOf(
      await ctx.call(
        'bulkCreate',
        { propertyUnitId: ctx.world.unitA, items: [{ unitNumber: '1' }, { unitNumber: '1', propertyUnitId: ctx.world.unitB }] },
        ctx.world.owner,
      ),
    );
    expect(result.items.map((item) => [item.unitNumber, item.propertyUnitId])).toEqual([
      ['1', ctx.world.unitA],
      ['1', ctx.world.unitB],
    ]);
  });

  test('per-item units only, without a top-level one', async () => {
    const result = dataOf(
      await ctx.call(
        'bulkCreate',
        { items: [{ unitNumber: 'x', propertyUnitId: ctx.world.unitB, status: 'SOLD', priceAdjustment: -5.5 }] },
        ctx.world.assigned,
      ),
    );
    expect(result.items).toEqual([
      expect.objectContaining({ propertyUnitId: ctx.world.unitB, propertyId: ctx.world.propertyId, status: 'SOLD', priceAdjustment: -5.5 }),
    ]);
  });

  test('notes are stored verbatim, line breaks included, and an item without notes has none', async () => {
    const notes = 'corner unit\r\n=HYPERLINK("x")\n  sea view ';
    const result = dataOf(
      await ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items: [{ unitNumber: 'n-1', notes }, { unitNumber: 'n-2' }] }, ctx.world.owner),
    );
    expect(result.items.map((item) => item.notes)).toEqual([notes, null]);
    const stored = await ctx.db.inventoryItem.findMany({ where: { id: { in: result.items.map((item) => item.itemId) } }, select: { unitNumber: true, notes: true } });
    expect(Object.fromEntries(stored.map((item) => [item.unitNumber, item.notes]))).toEqual({ 'n-1': notes, 'n-2': null });
  });

  test('an item with no unit anywhere: BAD_REQUEST at items.<i>.propertyUnitId', async () => {
    const result = await ctx.call('bulkCreate', { items: [{ unitNumber: '1', propertyUnitId: ctx.world.unitA }, { unitNumber: '2' }] }, ctx.world.owner);
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[400, 'BAD_REQUEST'], ['items.1.propertyUnitId']]);
  });

  test('propertyId scopes the call: a unit of another property is a field error and nothing is written', async () => {
    const before = await snapshot();
    const viaItem = await ctx.call(
      'bulkCreate',
      { propertyId: ctx.world.propertyId, items: [{ unitNumber: '1', propertyUnitId: ctx.world.unitA }, { unitNumber: '2', propertyUnitId: ctx.world.otherUnit }] },
      ctx.world.admin,
    );
    expect([outcomeOf(viaItem), issuePathsOf(viaItem)]).toEqual([[400, 'BAD_REQUEST'], ['items.1.propertyUnitId']]);
    const viaTop = await ctx.call(
      'bulkCreate',
      { propertyId: ctx.world.propertyId, propertyUnitId: 'no-such-unit', items: [{ unitNumber: '1' }, { unitNumber: '2' }] },
      ctx.world.owner,
    );
    expect([outcomeOf(viaTop), issuePathsOf(viaTop)]).toEqual([[400, 'BAD_REQUEST'], ['propertyUnitId']]);
    expect(await snapshot()).toEqual(before);
  });

  test("propertyId of someone else's property, or an unknown or foreign unit without propertyId: NOT_FOUND", async () => {
    const before = await snapshot();
    const foreignProperty = await ctx.call(
      'bulkCreate',
      { propertyId: ctx.world.otherPropertyId, propertyUnitId: ctx.world.otherUnit, items: [{ unitNumber: '1' }] },
      ctx.world.owner,
    );
    expect(outcomeOf(foreignProperty)).toEqual([404, 'NOT_FOUND']);
    const foreignUnit = await ctx.call(
      'bulkCreate',
      { items: [{ unitNumber: '1', propertyUnitId: ctx.world.unitA }, { unitNumber: '1', propertyUnitId: ctx.world.otherUnit }] },
      ctx.world.owner,
    );
    expect(outcomeOf(foreignUnit)).toEqual([404, 'NOT_FOUND']);
    const unknownUnit = await ctx.call('bulkCreate', { propertyUnitId: 'no-such-unit', items: [{ unitNumber: '1' }] }, ctx.world.owner);
    expect(outcomeOf(unknownUnit)).toEqual([404, 'NOT_FOUND']);
    expect(foreignUnit.ok ? '' : foreignUnit.error.message).toBe(unknownUnit.ok ? '-' : unknownUnit.error.message);
    expect(await snapshot()).toEqual(before);
  });
});

describe('bulkUpdate', () => {
  async function items(prices: (number | null)[]) {
    return Promise.all(
      prices.map((priceAdjustment, index) =>
        createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: `p${index}`, priceAdjustment, floor: 2 }),
      ),
    );
  }

  async function update(input: Record<string, unknown>, ids: string[]) {
    return ctx.call('bulkUpdate', { ids, ...input }, ctx.world.owner);
  }

  test('status sets the status of every item', async () => {
    const seeded = await items([null, 1]);
    const result = dataOf(await update({ action: 'status', status: 'RESERVED' }, seeded.map((item) => item.id)));
    expect(result.items.map((item) => [item.status, item.floor, item.priceAdjustment])).toEqual([
      ['RESERVED', 2, null],
      ['RESERVED', 2, 1],
    ]);
  });

  test('floor sets a number, or clears with null', async () => {
    const ids = (await items([null, null])).map((item) => item.id);
    expect(dataOf(await update({ action: 'floor', floor: -1.5 }, ids)).items.map((item) => item.floor)).toEqual([-1.5, -1.5]);
    expect(dataOf(await update({ action: 'floor', floor: null }, ids)).items.map((item) => item.floor)).toEqual([null, null]);
  });

  test.each([
    ['set', 7.25, [7.25, 7.25, 7.25]],
    ['increase', 2.5, [2.5, 12.5, -2.5]],
    ['decrease', 2.5, [-2.5, 7.5, -7.5]],
    ['set', 0, [0, 0, 0]],
    // Stored to cents, rounding half away from zero (numeric(14,2)): -4.995 becomes -5.00.
    ['increase', 0.005, [0.01, 10.01, -5]],
  ])('price %s %d over [null, 10, -5] (null counts as 0)', async (type, amount, expected) => {
    const ids = (await items([null, 10, -5])).map((item) => item.id);
    const result = dataOf(await update({ action: 'price', type, amount }, ids));
    expect(result.items.map((item) => item.priceAdjustment)).toEqual(expected);
    const stored = await ctx.db.inventoryItem.findMany({ where: { id: { in: ids } }, orderBy: { unitNumber: 'asc' } });
    expect(stored.map((item) => item.priceAdjustment?.toNumber() ?? null)).toEqual(expected);
  });

  test.each([
    [{ action: 'status' }, ['status']],
    [{ action: 'status', status: 'SOLD', type: 'set' }, ['type']],
    [{ action: 'floor' }, ['floor']],
    [{ action: 'floor', floor: 1, status: 'SOLD' }, ['status']],
    [{ action: 'price' }, ['type', 'amount']],
    [{ action: 'price', type: 'increase' }, ['amount']],
    [{ action: 'price', amount: 1 }, ['type']],
    [{ action: 'price', type: 'set', amount: null }, ['amount']],
    [{ action: 'price', type: 'set', amount: 1, floor: 2 }, ['floor']],
  ])('%j → BAD_REQUEST naming %j; nothing changes', async (change, paths) => {
    const ids = (await items([1])).map((item) => item.id);
    const before = await snapshot();
    const result = await update(change, ids);
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[400, 'BAD_REQUEST'], paths]);
    expect(await snapshot()).toEqual(before);
  });

  test('a result outside numeric(14,2) is a BAD_REQUEST on amount and changes nothing', async () => {
    const ids = (await items([999_999_999_999, 0])).map((item) => item.id);
    const before = await snapshot();
    const result = await update({ action: 'price', type: 'increase', amount: 1 }, ids);
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[400, 'BAD_REQUEST'], ['amount']]);
    expect(await snapshot()).toEqual(before);
  });

  test('results come back in the order of the ids, duplicates once', async () => {
    const [a, b] = await items([1, 2]);
    const ids = [b!.id, a!.id, b!.id];
    const result = dataOf(await update({ action: 'status', status: 'SOLD' }, ids));
    expect(result.items.map((item) => item.itemId)).toEqual([b!.id, a!.id]);
  });
});

describe('atomicity', () => {
  test.each([
    ['bulkUpdate', { action: 'status', status: 'SOLD' }],
    ['bulkDelete', {}],
  ] as const)('%s with one foreign id changes nothing and names that id', async (procedure, extra) => {
    const mine = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
    const theirs = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.otherUnit });
    const before = await snapshot();
    const result = await ctx.call(procedure, { ids: [mine.id, theirs.id], ...extra }, ctx.world.owner);
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[404, 'NOT_FOUND'], ['ids.1']]);
    expect(await snapshot()).toEqual(before);
    // An id that never existed reads exactly the same.
    const unknown = await ctx.call(procedure, { ids: [mine.id, 'no-such-item'], ...extra }, ctx.world.owner);
    expect(unknown.ok ? '' : unknown.error.message).toBe(result.ok ? '-' : result.error.message);
    expect(issuePathsOf(unknown)).toEqual(['ids.1']);
    expect(await snapshot()).toEqual(before);
  });

  /** A transaction of the test's own that holds row locks the way a concurrent caller would. */
  async function lockHolder(pool: SqlPool) {
    const client = await pool.connect();
    await client.query('BEGIN');
    return {
      lock: (id: string) => client.query('SELECT 1 FROM "inventory_items" WHERE "id" = $1 FOR UPDATE', [id]),
      query: (text: string, values: unknown[]) => client.query(text, values),
      async end(verb: 'COMMIT' | 'ROLLBACK') {
        await client.query(verb);
        client.release();
      },
    };
  }

  /** Resolves once `calls` bulk statements containing `statement` are queued behind a lock (pg_stat_activity says so). */
  async function bulkStatementBlocked(pool: SqlPool, statement: string, calls = 1): Promise<void> {
    for (;;) {
      const { rows } = await pool.query<{ waiting: number }>(
        `SELECT count(*)::int AS "waiting" FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND position($1 IN query) > 0`,
        [statement],
      );
      if (rows[0]!.waiting >= calls) return;
      await delay(5);
    }
  }

  // Both bulk writes lock rows as their one statement reaches them, with no locking pass first.
  const lockingBulkCalls: readonly {
    procedure: string;
    statement: string;
    call: (ids: string[]) => Promise<CallResult<unknown>>;
    expected: (ids: string[]) => unknown;
    applied: (ids: string[]) => Promise<boolean>;
  }[] = [
    {
      procedure: 'bulkDelete',
      statement: 'DELETE FROM "inventory_items" t',
      call: (ids: string[]) => ctx.call('bulkDelete', { ids }, ctx.world.owner),
      expected: (ids: string[]) => ({ itemIds: ids, count: ids.length }),
      applied: async (ids: string[]) => (await ctx.db.inventoryItem.count({ where: { id: { in: ids } } })) === 0,
    },
    {
      procedure: 'bulkUpdate',
      statement: 'UPDATE "inventory_items" t',
      call: (ids: string[]) => ctx.call('bulkUpdate', { ids, action: 'status', status: 'SOLD' }, ctx.world.owner),
      expected: (ids: string[]) => ({ items: ids.map((itemId) => expect.objectContaining({ itemId, status: 'SOLD' })) }),
      applied: async (ids: string[]) => (await ctx.db.inventoryItem.count({ where: { id: { in: ids }, status: 'SOLD' } })) === ids.length,
    },
  ] as const;

  /** Two items whose id order is also their insertion order, so every plan reaches `first` first. */
  async function itemPairInScanOrder() {
    for (;;) {
      const first = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
      const second = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
      if (first.id < second.id) return [first.id, second.id] as const;
      await ctx.db.inventoryItem.deleteMany({ where: { id: { in: [first.id, second.id] } } });
    }
  }

  test.each(lockingBulkCalls)('$procedure chosen as a deadlock victim is run again and applies to every item', async (bulk) => {
    const pool = sqlPoolOf(ctx.db);
    const [first, second] = await itemPairInScanOrder();
    const holder = await lockHolder(pool);
    // The backend that finds a deadlock is the one aborted. The bulk statement's checks after the
    // server's deadlock_timeout (1 s); this transaction's would check after a minute, so it never goes first.
    await holder.query(`SET LOCAL deadlock_timeout = '1min'`, []);
    await holder.lock(second);
    const running = bulk.call([first, second]);
    await bulkStatementBlocked(pool, bulk.statement);
    // The bulk statement holds `first` and waits for `second`; asking for `first` closes the cycle.
    await holder.lock(first);
    await holder.end('COMMIT');
    expect(dataOf(await running)).toEqual(bulk.expected([first, second]));
    expect(await bulk.applied([first, second])).toBe(true);
  });

  test.each(lockingBulkCalls)(
    'an item deleted by another caller while $procedure waits for it: nothing is applied, NOT_FOUND names it',
    async (bulk) => {
      const pool = sqlPoolOf(ctx.db);
      const [first, second] = await itemPairInScanOrder();
      const before = await ctx.db.inventoryItem.findUnique({ where: { id: first } });
      const holder = await lockHolder(pool);
      await holder.query('DELETE FROM "inventory_items" WHERE "id" = $1', [second]);
      const running = bulk.call([first, second]);
      await bulkStatementBlocked(pool, bulk.statement);
      await holder.end('COMMIT');
      const result = await running;
      expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[404, 'NOT_FOUND'], ['ids.1']]);
      expect(await ctx.db.inventoryItem.findUnique({ where: { id: first } })).toEqual(before);
    },
  );

  test('bulkCreate with one conflicting item writes none of the others', async () => {
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitB, unitNumber: 'taken' });
    const before = await snapshot();
    const items = Array.from({ length: 300 }, (_, i) => ({ unitNumber: `n-${i}` }));
    items.push({ unitNumber: 'taken', propertyUnitId: ctx.world.unitB } as { unitNumber: string });
    const result = await ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items }, ctx.world.owner);
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[409, 'CONFLICT'], ['items.300.unitNumber']]);
    expect(await snapshot()).toEqual(before);
  });

  test('concurrent bulk calls over overlapping sets in opposite orders neither deadlock nor half-apply', async () => {
    const seeded = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: `c${i}` })),
    );
    const ids = seeded.map((item) => item.id);
    const reversed = [...ids].reverse();
    const results = await Promise.all([
      ctx.call('bulkUpdate', { ids, action: 'price', type: 'increase', amount: 1 }, ctx.world.owner),
      ctx.call('bulkUpdate', { ids: reversed, action: 'price', type: 'increase', amount: 1 }, ctx.world.assigned),
      ctx.call('bulkUpdate', { ids, action: 'price', type: 'increase', amount: 1 }, ctx.world.admin),
      ctx.call('bulkUpdate', { ids: reversed, action: 'status', status: 'SOLD' }, ctx.world.owner),
    ]);
    expect(results.map(outcomeOf)).toEqual(results.map(() => [200, 'OK']));
    const stored = await ctx.db.inventoryItem.findMany({ where: { id: { in: ids } } });
    expect(new Set(stored.map((item) => `${item.priceAdjustment?.toNumber()}:${item.status}`))).toEqual(new Set(['3:SOLD']));
  });

  test('concurrent bulkCreates of the same numbers in opposite orders: one wins, one conflicts', async () => {
    const pool = sqlPoolOf(ctx.db);
    const numbers = Array.from({ length: 50 }, (_, i) => ({ unitNumber: `r${i}` }));
    // A number in the middle is held by a transaction of the test's own, so that both calls are
    // part way through their inserts when it lets go: taken in opposite orders, each would then
    // wait for a number the other holds.
    const holder = await lockHolder(pool);
    await holder.query(`INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber", "updatedAt") VALUES ($1, 'r25', now())`, [
      ctx.world.unitA,
    ]);
    const running = Promise.all([
      ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items: numbers }, ctx.world.owner),
      ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items: [...numbers].reverse() }, ctx.world.assigned),
    ]);
    await bulkStatementBlocked(pool, 'INSERT INTO "inventory_items"', 2);
    await holder.end('ROLLBACK');
    const [first, second] = await running;
    expect([outcomeOf(first), outcomeOf(second)].sort()).toEqual([
      [200, 'OK'],
      [409, 'CONFLICT'],
    ]);
    expect(await ctx.db.inventoryItem.count({ where: { propertyUnitId: ctx.world.unitA } })).toBe(50);
  });
});

test('no request in this file was logged as a failure', () => {
  expect(ctx.logs.lines).toEqual([]);
});
