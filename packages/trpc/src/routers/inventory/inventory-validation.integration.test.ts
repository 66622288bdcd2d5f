// Every input boundary of docs/system.md 4.4/2.8 over HTTP: each invalid input is a 400 BAD_REQUEST that
// names the field, nothing is written, and nothing is logged as a server failure.
import { describe, expect, test } from '@jest/globals';
import { createInventoryItem } from '@staging/db/testing/factories';
import { dataOf, issuePathsOf, outcomeOf } from '../../testing/inventory-calls';
import type { InventoryProcedure } from '../../testing/inventory-calls';
import { useInventoryTestContext } from '../../testing/inventory-test-context';
import { callProcedure } from '../../testing/test-server';

const ctx = useInventoryTestContext();

const itemCount = () => ctx.db.inventoryItem.count({ where: { unit: { propertyId: ctx.world.propertyId } } });

describe('unitNumber', () => {
  test('create: 0 and 101 characters are refused, 1 and 100 accepted', async () => {
    const create = (unitNumber: string) => ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber }, ctx.world.owner);
    const empty = await create('');
    expect([outcomeOf(empty), issuePathsOf(empty)]).toEqual([[400, 'BAD_REQUEST'], ['unitNumber']]);
    const tooLong = await create('7'.repeat(101));
    expect([outcomeOf(tooLong), issuePathsOf(tooLong)]).toEqual([[400, 'BAD_REQUEST'], ['unitNumber']]);
    expect(dataOf(await create('1')).unitNumber).toBe('1');
    expect(dataOf(await create('x'.repeat(100))).unitNumber).toHaveLength(100);
    expect(await itemCount()).toBe(2);
  });

  test('create: whitespace only is empty after trimming; 100 characters plus padding fits', async () => {
    const blank = await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: '   ' }, ctx.world.owner);
    expect(outcomeOf(blank)).toEqual([400, 'BAD_REQUEST']);
    const padded = await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: ` ${'y'.repeat(100)} ` }, ctx.world.owner);
    expect(dataOf(padded).unitNumber).toBe('y'.repeat(100));
  });

  test('bulkCreate items: 0 and 101 characters refused at items.<i>.unitNumber, 1 and 100 accepted', async () => {
    const bulk = (unitNumbers: string[]) =>
      ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items: unitNumbers.map((unitNumber) => ({ unitNumber })) }, ctx.world.owner);
    const result = await bulk(['ok', '', 'z'.repeat(101)]);
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([
      [400, 'BAD_REQUEST'],
      ['items.1.unitNumber', 'items.2.unitNumber'],
    ]);
    expect(await itemCount()).toBe(0);
    expect(dataOf(await bulk(['1', 'z'.repeat(100)])).items.map((item) => item.unitNumber.length)).toEqual([1, 100]);
  });

  test('update: 0 and 100 characters accepted, 101 refused', async () => {
    const item = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: 'u' });
    const update = (unitNumber: string) => ctx.call('update', { itemId: item.id, unitNumber }, ctx.world.owner);
    expect(issuePathsOf(await update('q'.repeat(101)))).toEqual(['unitNumber']);
    expect(dataOf(await update('q'.repeat(100))).unitNumber).toHaveLength(100);
    expect(dataOf(await update('')).unitNumber).toBe('');
  });

  test('duplicate unitNumber within a unit is CONFLICT (create, update, bulkCreate); other units are independent', async () => {
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: '101' });
    const other = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: '102' });
    const duplicate = await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: ' 101' }, ctx.world.owner);
    expect([outcomeOf(duplicate), issuePathsOf(duplicate)]).toEqual([[409, 'CONFLICT'], ['unitNumber']]);
    const renamed = await ctx.call('update', { itemId: other.id, unitNumber: '101' }, ctx.world.owner);
    expect([outcomeOf(renamed), issuePathsOf(renamed)]).toEqual([[409, 'CONFLICT'], ['unitNumber']]);
    const bulkExisting = await ctx.call(
      'bulkCreate',
      { propertyUnitId: ctx.world.unitA, items: [{ unitNumber: 'new' }, { unitNumber: '101' }] },
      ctx.world.owner,
    );
    expect([outcomeOf(bulkExisting), issuePathsOf(bulkExisting)]).toEqual([[409, 'CONFLICT'], ['items.1.unitNumber']]);
    const bulkTwice = await ctx.call(
      'bulkCreate',
      { propertyUnitId: ctx.world.unitA, items: [{ unitNumber: 'n1' }, { unitNumber: ' n1 ' }] },
      ctx.world.owner,
    );
    expect([outcomeOf(bulkTwice), issuePathsOf(bulkTwice)]).toEqual([[409, 'CONFLICT'], ['items.1.unitNumber']]);
    expect(await itemCount()).toBe(2);
    expect(outcomeOf(await ctx.call('create', { propertyUnitId: ctx.world.unitB, unitNumber: '101' }, ctx.world.owner))).toEqual([200, 'OK']);
  });
});

describe('notes', () => {
  test('500 characters and null accepted, 501 refused', async () => {
    const create = (unitNumber: string, notes: string | null) =>
      ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber, notes }, ctx.world.owner);
    expect(dataOf(await create('a', 'n'.repeat(500))).notes).toHaveLength(500);
    expect(dataOf(await create('b', null)).notes).toBeNull();
    expect(issuePathsOf(await create('c', 'n'.repeat(501)))).toEqual(['notes']);
    const item = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
    expect(issuePathsOf(await ctx.call('update', { itemId: item.id, notes: 'n'.repeat(501) }, ctx.world.owner))).toEqual(['notes']);
    expect(dataOf(await ctx.call('update', { itemId: item.id, notes: 'n'.repeat(500) }, ctx.world.owner)).notes).toHaveLength(500);
  });
});

describe('bulk sizes', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ unitNumber: `B-${i}` }));

  test('bulkCreate: 0 and 501 items refused, 1 and 500 accepted', async () => {
    for (const n of [0, 501]) {
      const result = await ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items: items(n) }, ctx.world.owner);
      expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[400, 'BAD_REQUEST'], ['items']]);
    }
    expect(await itemCount()).toBe(0);
    expect(dataOf(await ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitA, items: items(1) }, ctx.world.owner)).items).toHaveLength(1);
    const full = dataOf(await ctx.call('bulkCreate', { propertyUnitId: ctx.world.unitB, items: items(500) }, ctx.world.owner));
    expect(full.items.map((item) => item.unitNumber)).toEqual(items(500).map((item) => item.unitNumber));
    expect(await itemCount()).toBe(501);
  });

  test('bulkUpdate and bulkDelete: empty ids refused; more than 1000 refused', async () => {
    for (const procedure of ['bulkUpdate', 'bulkDelete'] as const) {
      const extra = procedure === 'bulkUpdate' ? { action: 'floor', floor: 1 } : {};
      expect(issuePathsOf(await ctx.call(procedure, { ids: [], ...extra }, ctx.world.owner))).toEqual(['ids']);
      const many = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
      expect(issuePathsOf(await ctx.call(procedure, { ids: many, ...extra }, ctx.world.owner))).toEqual(['ids']);
      expect(issuePathsOf(await ctx.call(procedure, { ids: [''], ...extra }, ctx.world.owner))).toEqual(['ids.0']);
    }
  });
});

describe('enums, numbers and unknown keys', () => {
  test('unknown enum values are refused', async () => {
    const item = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
    expect(issuePathsOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: 'e', status: 'LEASED' }, ctx.world.owner))).toEqual([
      'status',
    ]);
    expect(issuePathsOf(await ctx.call('update', { itemId: item.id, status: 'sold' }, ctx.world.owner))).toEqual(['status']);
    expect(issuePathsOf(await ctx.call('bulkUpdate', { ids: [item.id], action: 'rename' }, ctx.world.owner))).toEqual(['action']);
    expect(issuePathsOf(await ctx.call('bulkUpdate', { ids: [item.id], action: 'price', type: 'double', amount: 2 }, ctx.world.owner))).toEqual([
      'type',
    ]);
    expect(
      issuePathsOf(await ctx.call('bulkUpdate', { ids: [item.id], action: 'status', status: 'GONE' }, ctx.world.owner)),
    ).toEqual(['status']);
  });

  test.each([
    ['the string "NaN"', 'NaN'],
    ['the string "Infinity"', 'Infinity'],
    ['a numeric string', '12'],
    ['a boolean', true],
    ['an array', [1]],
  ])('numbers as %s are refused', async (_label, value) => {
    const item = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
    const fields = ['floor', 'priceAdjustment'] as const;
    for (const field of fields) {
      expect(issuePathsOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: 'n', [field]: value }, ctx.world.owner))).toEqual([
        field,
      ]);
      expect(issuePathsOf(await ctx.call('update', { itemId: item.id, [field]: value }, ctx.world.owner))).toEqual([field]);
    }
    expect(issuePathsOf(await ctx.call('bulkUpdate', { ids: [item.id], action: 'floor', floor: value }, ctx.world.owner))).toEqual(['floor']);
    expect(
      issuePathsOf(await ctx.call('bulkUpdate', { ids: [item.id], action: 'price', type: 'set', amount: value }, ctx.world.owner)),
    ).toEqual(['amount']);
    expect(await itemCount()).toBe(1);
  });

  test('JSON numbers too large for a double arrive as Infinity and are refused', async () => {
    const rawBody = `{"propertyUnitId":${JSON.stringify(ctx.world.unitA)},"unitNumber":"big","floor":1e400}`;
    const result = await ctx.call('create', null, ctx.world.owner, { rawBody });
    expect([outcomeOf(result), issuePathsOf(result)]).toEqual([[400, 'BAD_REQUEST'], ['floor']]);
    const price = await ctx.call('create', null, ctx.world.owner, { rawBody: rawBody.replace('"floor"', '"priceAdjustment"') });
    expect(issuePathsOf(price)).toEqual(['priceAdjustment']);
    const outOfColumn = await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: 'big', priceAdjustment: 1e15 }, ctx.world.owner);
    expect(issuePathsOf(outOfColumn)).toEqual(['priceAdjustment']);
  });

  test('raw invalid JSON (NaN, Infinity, trailing garbage) is a 400, never a 500', async () => {
    for (const rawBody of ['{"floor": NaN}', '{"floor": Infinity}', '{"unitNumber": "1",}', '{', 'undefined']) {
      const result = await ctx.call('create', null, ctx.world.owner, { rawBody });
      expect([outcomeOf(result), result.ok ? '' : result.error.message]).toEqual([[400, 'BAD_REQUEST'], 'Malformed JSON input']);
    }
    const query = await callProcedure(ctx.url, 'query', 'inventory.getUnits', null, {
      cookie: ctx.world.owner.cookie,
      rawBody: '{"propertyId": NaN}',
    });
    expect(outcomeOf(query)).toEqual([400, 'BAD_REQUEST']);
    expect(await itemCount()).toBe(0);
  });

  test('floor: null and values within ±10,000 are stored as sent; beyond is refused', async () => {
    expect(issuePathsOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: 'f', floor: Number.MAX_VALUE }, ctx.world.owner))).toEqual(['floor']);
    expect(issuePathsOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: 'f', floor: 10_000.5 }, ctx.world.owner))).toEqual(['floor']);
    const values = [null, -10_000, 0.5, 2.5e-300, 10_000];
    for (const [index, floor] of values.entries()) {
      const record = dataOf(await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: `f${index}`, floor }, ctx.world.owner));
      expect(record.floor).toBe(floor);
    }
  });

  test('unknown keys are refused at every level, each named', async () => {
    const item = await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA });
    const cases: [InventoryProcedure, unknown, string[]][] = [
      ['getUnits', { propertyId: ctx.world.propertyId, limit: 5 }, ['limit']],
      ['create', { propertyUnitId: ctx.world.unitA, unitNumber: 'k', color: 'red', size: 2 }, ['color', 'size']],
      ['update', { itemId: item.id, propertyUnitId: ctx.world.unitB }, ['propertyUnitId']],
      ['delete', { itemId: item.id, force: true }, ['force']],
      ['bulkCreate', { propertyUnitId: ctx.world.unitA, items: [{ unitNumber: 'k', note: 'x' }] }, ['items.0.note']],
      ['bulkUpdate', { ids: [item.id], action: 'floor', floor: 1, dryRun: true }, ['dryRun']],
      ['bulkDelete', { ids: [item.id], all: true }, ['all']],
    ];
    for (const [procedure, input, paths] of cases) {
      const result = await ctx.call(procedure, input, ctx.world.owner);
      expect([procedure, outcomeOf(result), issuePathsOf(result)]).toEqual([procedure, [400, 'BAD_REQUEST'], paths]);
    }
    expect(await ctx.db.inventoryItem.findUniqueOrThrow({ where: { id: item.id } })).toEqual(item);
  });

  test('non-object inputs are refused', async () => {
    for (const input of [null, 'x', 42, [], [{ propertyId: ctx.world.propertyId }]]) {
      expect(outcomeOf(await ctx.call('getUnits', input, ctx.world.owner))).toEqual([400, 'BAD_REQUEST']);
    }
    expect(outcomeOf(await ctx.call('getUnits', undefined, ctx.world.owner))).toEqual([400, 'BAD_REQUEST']);
  });
});

test('error bodies carry no stack and no internal detail', async () => {
  const result = await ctx.call('create', { propertyUnitId: ctx.world.unitA, unitNumber: '' }, ctx.world.owner);
  expect(result.ok).toBe(false);
  expect(JSON.stringify(result)).not.toMatch(/stack|\.ts:|node_modules|prisma/i);
});

test('no request in this file was logged as a failure', () => {
  expect(ctx.logs.lines).toEqual([]);
});
