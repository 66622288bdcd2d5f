// inventory.getUnits' bound and the paginated reads (listUnits, listItems) over the real HTTP
// endpoint with real sessions, Postgres and Redis: order, cursors, limits and authorization.
import { describe, expect, test } from '@jest/globals';
import type { InventoryItemRecord, ListItemsResult } from '@staging/contracts/inventory';
import { GET_UNITS_MAX_ITEMS } from '@staging/domain/inventory';
import { createInventoryItem, createPropertyUnit } from '@staging/db/testing/factories';
import type { SignedInUser } from '../../testing/inventory-fixtures';
import { dataOf, issuePathsOf, outcomeOf } from '../../testing/inventory-calls';
import { useInventoryTestContext } from '../../testing/inventory-test-context';

const now = new Date('2031-06-01T08:30:00.250Z');
const ctx = useInventoryTestContext({ now: () => now });

/** `count` items numbered 1..count in unit `unitId`, in one statement. */
async function seedItems(unitId: string, count: number): Promise<void> {
  await ctx.db.$executeRaw`
    INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber")
    SELECT ${unitId}, n::text FROM generate_series(1, ${count}::int) n`;
}

/** Every item of a unit, walked page by page with `limit`. */
async function walkItems(unitId: string, limit: number, user: SignedInUser = ctx.world.owner): Promise<{ pages: number; items: InventoryItemRecord[] }> {
  const items: InventoryItemRecord[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: ListItemsResult = dataOf(await ctx.call('listItems', { propertyUnitId: unitId, limit, cursor }, user));
    items.push(...page.items);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== null);
  return { pages, items };
}

const codePointOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('getUnits bound', () => {
  test(`a property with ${GET_UNITS_MAX_ITEMS} items is answered whole; one more is RESULT_TOO_LARGE naming the paginated reads`, async () => {
    await seedItems(ctx.world.unitA, GET_UNITS_MAX_ITEMS - 1);
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitB, unitNumber: 'last' });
    const whole = dataOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner));
    expect(whole.units.map((unit) => unit.items.length)).toEqual([GET_UNITS_MAX_ITEMS - 1, 1]);

    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitB, unitNumber: 'one too many' });
    const refused = await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.assigned);
    expect(outcomeOf(refused)).toEqual([422, 'RESULT_TOO_LARGE']);
    expect(refused.ok ? '' : refused.error.message).toMatch(/inventory\.listUnits and inventory\.listItems/);
    // Access is checked before size: a stranger still learns nothing.
    expect(outcomeOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.unrelated))).toEqual([404, 'NOT_FOUND']);
  });
});

describe('listItems', () => {
  test('pages follow code-point order then id, each item once, whatever the page size', async () => {
    const numbers = ['10', '2', 'A', 'a', 'b', 'Ä', 'ä', 'é', 'e\u0301', '☃', '𝄞', 'Z9', 'z', '1', '01', '_'];
    for (const unitNumber of numbers) await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber });
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitB, unitNumber: 'elsewhere' });
    const expected = [...numbers].sort(codePointOrder);
    for (const limit of [1, 3, 16, 500]) {
      const { pages, items } = await walkItems(ctx.world.unitA, limit);
      expect(items.map((item) => item.unitNumber)).toEqual(expected);
      expect(pages).toBe(Math.ceil(numbers.length / limit));
      expect(new Set(items.map((item) => item.itemId)).size).toBe(numbers.length);
    }
    // The same records and order as getUnits.
    const units = dataOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner)).units;
    expect((await walkItems(ctx.world.unitA, 5)).items).toEqual(units[0]?.items);
  });

  test('the order is an index: unitNumber in code-point collation, then id, after the unit', async () => {
    // An index in the default collation cannot give COLLATE "C" order, and each page would sort.
    const [index] = await ctx.db.$queryRaw<{ indexdef: string }[]>`
      SELECT indexdef FROM pg_indexes WHERE indexname = 'inventory_items_unit_code_point_order_idx'`;
    expect(index?.indexdef).toMatch(/\("propertyUnitId", "unitNumber" COLLATE "C", id\)$/);
  });

  test('default page of 100; a limit over 500 or a forged cursor is BAD_REQUEST on that field', async () => {
    await seedItems(ctx.world.unitA, 101);
    const first = dataOf(await ctx.call('listItems', { propertyUnitId: ctx.world.unitA }, ctx.world.owner));
    expect(first.items).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = dataOf(await ctx.call('listItems', { propertyUnitId: ctx.world.unitA, cursor: first.nextCursor }, ctx.world.owner));
    expect(second.items.map((item) => item.unitNumber)).toEqual(['99']);
    expect(second.nextCursor).toBeNull();

    const tooMany = await ctx.call('listItems', { propertyUnitId: ctx.world.unitA, limit: 501 }, ctx.world.owner);
    expect([outcomeOf(tooMany), issuePathsOf(tooMany)]).toEqual([[400, 'BAD_REQUEST'], ['limit']]);
    const forged = await ctx.call('listItems', { propertyUnitId: ctx.world.unitA, cursor: 'bm90IGEgY3Vyc29y' }, ctx.world.owner);
    expect([outcomeOf(forged), issuePathsOf(forged)]).toEqual([[400, 'BAD_REQUEST'], ['cursor']]);
  });

  test('an item added or deleted between pages neither repeats nor hides the items that stay', async () => {
    for (const unitNumber of ['a', 'c', 'e', 'g']) await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber });
    const first = dataOf(await ctx.call('listItems', { propertyUnitId: ctx.world.unitA, limit: 2 }, ctx.world.owner));
    expect(first.items.map((item) => item.unitNumber)).toEqual(['a', 'c']);
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: 'b' });
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: 'd' });
    dataOf(await ctx.call('delete', { itemId: first.items[1]?.itemId }, ctx.world.owner));
    const rest = dataOf(await ctx.call('listItems', { propertyUnitId: ctx.world.unitA, limit: 10, cursor: first.nextCursor }, ctx.world.owner));
    expect(rest.items.map((item) => item.unitNumber)).toEqual(['d', 'e', 'g']);
  });

  test('the owner, an assigned agent and an admin read a unit; an unrelated agent and an unknown unit get the same NOT_FOUND', async () => {
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: '1' });
    for (const reader of [ctx.world.owner, ctx.world.assigned, ctx.world.admin]) {
      expect(dataOf(await ctx.call('listItems', { propertyUnitId: ctx.world.unitA }, reader)).items).toHaveLength(1);
    }
    const stranger = await ctx.call('listItems', { propertyUnitId: ctx.world.unitA }, ctx.world.unrelated);
    const unknown = await ctx.call('listItems', { propertyUnitId: 'no-such-unit' }, ctx.world.unrelated);
    expect(outcomeOf(stranger)).toEqual([404, 'NOT_FOUND']);
    expect(stranger.ok ? undefined : stranger.error.message).toBe(unknown.ok ? 'unexpected' : unknown.error.message);
    expect(outcomeOf(await ctx.call('listItems', { propertyUnitId: ctx.world.unitA }))).toEqual([401, 'UNAUTHORIZED']);
  });
});

describe('listUnits', () => {
  test('units in getUnits order across pages, an empty property answers no units, strangers get NOT_FOUND', async () => {
    const later = await createPropertyUnit(ctx.db, { propertyId: ctx.world.propertyId, name: 'C', createdAt: new Date(now.getTime() + 5000) });
    const first = dataOf(await ctx.call('listUnits', { propertyId: ctx.world.propertyId, limit: 2 }, ctx.world.assigned));
    expect(first.units.map((unit) => unit.name)).toEqual(['A', 'B']);
    expect(first.units[0]).toEqual({ propertyUnitId: ctx.world.unitA, propertyId: ctx.world.propertyId, name: 'A', createdAt: expect.any(String) });
    const second = dataOf(await ctx.call('listUnits', { propertyId: ctx.world.propertyId, limit: 2, cursor: first.nextCursor }, ctx.world.assigned));
    expect([second.units.map((unit) => unit.propertyUnitId), second.nextCursor]).toEqual([[later.id], null]);
    const whole = dataOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner));
    expect([...first.units, ...second.units]).toEqual(whole.units.map(({ items: _items, ...unit }) => unit));

    await ctx.db.propertyUnit.deleteMany({ where: { propertyId: ctx.world.otherPropertyId } });
    expect(dataOf(await ctx.call('listUnits', { propertyId: ctx.world.otherPropertyId }, ctx.world.unrelated))).toEqual({
      propertyId: ctx.world.otherPropertyId,
      units: [],
      nextCursor: null,
    });
    expect(outcomeOf(await ctx.call('listUnits', { propertyId: ctx.world.propertyId }, ctx.world.unrelated))).toEqual([404, 'NOT_FOUND']);
  });
});
