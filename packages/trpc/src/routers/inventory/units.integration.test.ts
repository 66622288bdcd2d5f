// inventory.createUnit, renameUnit and deleteUnit over the real HTTP endpoint with real sessions,
// Postgres and Redis: results, unique names, the confirmed delete, validation and authorization.
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, test } from '@jest/globals';
import { sqlPoolOf } from '@staging/db/client';
import { createInventoryItem, createProperty, createPropertyUnit } from '@staging/db/testing/factories';
import type { InventoryWorld, SignedInUser } from '../../testing/inventory-fixtures';
import { dataOf, ISO_INSTANT, issuePathsOf, outcomeOf } from '../../testing/inventory-calls';
import type { UnitProcedure } from '../../testing/inventory-calls';
import { useInventoryTestContext } from '../../testing/inventory-test-context';
import { createSignedInUser } from '../../testing/test-server';
import type { CallResult } from '../../testing/test-server';

const now = new Date('2031-06-01T08:30:00.250Z');
const ctx = useInventoryTestContext({ now: () => now });

async function unitNames(propertyId: string): Promise<string[]> {
  const units = await ctx.db.propertyUnit.findMany({ where: { propertyId }, orderBy: { name: 'asc' } });
  return units.map((unit) => unit.name);
}

describe('createUnit', () => {
  test('a property without units gets its first one, trimmed, and getUnits lists it empty', async () => {
    const property = await createProperty(ctx.db, { ownerAgentId: ctx.world.owner.id });
    const unit = dataOf(await ctx.call('createUnit', { propertyId: property.id, name: '  Tower North ' }, ctx.world.owner));
    expect(unit).toEqual({ propertyUnitId: expect.any(String), propertyId: property.id, name: 'Tower North', createdAt: now.toISOString() });
    expect(dataOf(await ctx.call('getUnits', { propertyId: property.id }, ctx.world.owner))).toEqual({
      propertyId: property.id,
      units: [{ ...unit, items: [] }],
    });
    // The new unit takes items like any other.
    const item = dataOf(await ctx.call('create', { propertyUnitId: unit.propertyUnitId, unitNumber: '1' }, ctx.world.owner));
    expect(item.propertyUnitId).toBe(unit.propertyUnitId);
  });

  test('names are unique per property without regard to letter case; another property may reuse one', async () => {
    const taken = await ctx.call('createUnit', { propertyId: ctx.world.propertyId, name: ' a ' }, ctx.world.owner);
    expect(outcomeOf(taken)).toEqual([409, 'CONFLICT']);
    expect(taken.ok ? undefined : taken.error.data.issues).toEqual([{ path: ['name'], message: 'Already used by another unit of this property', code: 'ALREADY_USED' }]);
    expect(await unitNames(ctx.world.propertyId)).toEqual(['A', 'B']);
    expect(outcomeOf(await ctx.call('createUnit', { propertyId: ctx.world.otherPropertyId, name: 'A' }, ctx.world.unrelated))).toEqual([200, 'OK']);
  });

  test('look-alikes are one name: width and no-break spaces are normalized away, the stored name is the plain one', async () => {
    const property = await createProperty(ctx.db, { ownerAgentId: ctx.world.owner.id });
    const created = dataOf(await ctx.call('createUnit', { propertyId: property.id, name: 'Ｔｏｗｅｒ\u00a0Ｃ' }, ctx.world.owner));
    expect(created.name).toBe('Tower C');
    for (const lookAlike of ['Tower C', 'tower\u00a0c', 'ＴＯＷＥＲ Ｃ', ' TOWER\u3000C ']) {
      const clash = await ctx.call('createUnit', { propertyId: property.id, name: lookAlike }, ctx.world.owner);
      expect([lookAlike, outcomeOf(clash), issuePathsOf(clash)]).toEqual([lookAlike, [409, 'CONFLICT'], ['name']]);
    }
    expect(await unitNames(property.id)).toEqual(['Tower C']);
  });

  test('a unit stored before names were normalized still takes its look-alikes: a CONFLICT, never a 500', async () => {
    const property = await createProperty(ctx.db, { ownerAgentId: ctx.world.owner.id });
    const legacy = await createPropertyUnit(ctx.db, { propertyId: property.id, name: 'Ｔｏｗｅｒ Ｄ' });
    const other = await createPropertyUnit(ctx.db, { propertyId: property.id, name: 'Annex' });
    expect(outcomeOf(await ctx.call('createUnit', { propertyId: property.id, name: 'tower d' }, ctx.world.owner))).toEqual([409, 'CONFLICT']);
    expect(outcomeOf(await ctx.call('renameUnit', { propertyUnitId: other.id, name: 'Tower\u00a0D' }, ctx.world.owner))).toEqual([409, 'CONFLICT']);
    // Its own name, normalized, is still its own.
    expect(dataOf(await ctx.call('renameUnit', { propertyUnitId: legacy.id, name: 'Ｔｏｗｅｒ Ｄ' }, ctx.world.owner)).name).toBe('Tower D');
  });

  test('ten agents adding the same name at once: one unit, nine CONFLICTs', async () => {
    const agents = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const agent = await createSignedInUser(ctx.db, { now });
        await ctx.db.propertyAgent.create({ data: { propertyId: ctx.world.propertyId, userId: agent.id } });
        return agent;
      }),
    );
    const results = await Promise.all(agents.map((agent) => ctx.call('createUnit', { propertyId: ctx.world.propertyId, name: 'Annex' }, agent)));
    expect(results.map(outcomeOf).sort()).toEqual([[200, 'OK'], ...Array.from({ length: 9 }, () => [409, 'CONFLICT'])]);
    expect(await unitNames(ctx.world.propertyId)).toEqual(['A', 'Annex', 'B']);
  });
});

describe('renameUnit', () => {
  test('returns the unit under its new name, items kept', async () => {
    await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber: '7' });
    const renamed = dataOf(await ctx.call('renameUnit', { propertyUnitId: ctx.world.unitA, name: ' Block A ' }, ctx.world.assigned));
    expect(renamed).toEqual({ propertyUnitId: ctx.world.unitA, propertyId: ctx.world.propertyId, name: 'Block A', createdAt: expect.stringMatching(ISO_INSTANT) });
    const units = dataOf(await ctx.call('getUnits', { propertyId: ctx.world.propertyId }, ctx.world.owner)).units;
    expect(units.map((unit) => [unit.name, unit.items.length])).toEqual([
      ['Block A', 1],
      ['B', 0],
    ]);
  });

  test("another unit's name is a CONFLICT; its own name in another letter case is not", async () => {
    const clash = await ctx.call('renameUnit', { propertyUnitId: ctx.world.unitA, name: 'b' }, ctx.world.owner);
    expect(outcomeOf(clash)).toEqual([409, 'CONFLICT']);
    expect(issuePathsOf(clash)).toEqual(['name']);
    expect(dataOf(await ctx.call('renameUnit', { propertyUnitId: ctx.world.unitA, name: 'a' }, ctx.world.owner)).name).toBe('a');
    expect(await unitNames(ctx.world.propertyId)).toEqual(['B', 'a']);
  });
});

describe('deleteUnit', () => {
  test('an empty unit goes without a count', async () => {
    expect(dataOf(await ctx.call('deleteUnit', { propertyUnitId: ctx.world.unitB }, ctx.world.owner))).toEqual({
      propertyUnitId: ctx.world.unitB,
      propertyId: ctx.world.propertyId,
      name: 'B',
      createdAt: expect.stringMatching(ISO_INSTANT),
      deletedItemCount: 0,
    });
    expect(await unitNames(ctx.world.propertyId)).toEqual(['A']);
    expect(outcomeOf(await ctx.call('deleteUnit', { propertyUnitId: ctx.world.unitB }, ctx.world.owner))).toEqual([404, 'NOT_FOUND']);
  });

  test('a unit with items asks first: CONFLICT with the count until the caller expects exactly that many', async () => {
    for (const unitNumber of ['1', '2', '3']) await createInventoryItem(ctx.db, { propertyUnitId: ctx.world.unitA, unitNumber });
    for (const expectedItemCount of [undefined, 0, 2, 4]) {
      const refused = await ctx.call('deleteUnit', { propertyUnitId: ctx.world.unitA, expectedItemCount }, ctx.world.owner);
      expect([expectedItemCount, outcomeOf(refused)]).toEqual([expectedItemCount, [409, 'CONFLICT']]);
      expect(refused.ok ? undefined : refused.error.data.itemCount).toBe(3);
      expect(issuePathsOf(refused)).toEqual(['expectedItemCount']);
    }
    expect(await ctx.db.inventoryItem.count({ where: { propertyUnitId: ctx.world.unitA } })).toBe(3);
    const deleted = dataOf(await ctx.call('deleteUnit', { propertyUnitId: ctx.world.unitA, expectedItemCount: 3 }, ctx.world.assigned));
    expect(deleted).toMatchObject({ propertyUnitId: ctx.world.unitA, name: 'A', deletedItemCount: 3 });
    expect(await ctx.db.inventoryItem.count({ where: { propertyUnitId: ctx.world.unitA } })).toBe(0);
    expect(await unitNames(ctx.world.propertyId)).toEqual(['B']);
  });

  test('an item added while the delete counts is not removed unannounced: the delete waits for it, then asks again', async () => {
    const pool = sqlPoolOf(ctx.db);
    // A concurrent inventory.create, held open after its insert (which takes KEY SHARE on the unit).
    const adder = await pool.connect();
    await adder.query('BEGIN');
    await adder.query(`INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber") VALUES ($1, 'late')`, [ctx.world.unitB]);
    const deleting = ctx.call('deleteUnit', { propertyUnitId: ctx.world.unitB }, ctx.world.owner);
    // Whichever of its statements the delete is at, it is now queued behind the insert's lock.
    for (;;) {
      const { rows } = await pool.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (rows.length > 0) break;
      await delay(5);
    }
    await adder.query('COMMIT');
    adder.release();
    const refused = await deleting;
    expect(outcomeOf(refused)).toEqual([409, 'CONFLICT']);
    expect(refused.ok ? undefined : refused.error.data.itemCount).toBe(1);
    expect(await ctx.db.inventoryItem.count({ where: { propertyUnitId: ctx.world.unitB } })).toBe(1);
  });
});

describe('validation', () => {
  const long = 'x'.repeat(101);
  test.each<[UnitProcedure, string, (w: InventoryWorld) => unknown, string[]]>([
    ['createUnit', 'a blank name', (w) => ({ propertyId: w.propertyId, name: '   ' }), ['name']],
    ['createUnit', 'a 101-character name', (w) => ({ propertyId: w.propertyId, name: long }), ['name']],
    ['createUnit', 'a control character', (w) => ({ propertyId: w.propertyId, name: 'Tower\u0007' }), ['name']],
    ['createUnit', 'a C1 control (NEL)', (w) => ({ propertyId: w.propertyId, name: 'Tower\u0085B' }), ['name']],
    ['createUnit', 'a right-to-left override', (w) => ({ propertyId: w.propertyId, name: 'Tower \u202eB' }), ['name']],
    ['createUnit', 'a bidirectional isolate', (w) => ({ propertyId: w.propertyId, name: 'Tower \u2066B\u2069' }), ['name']],
    ['createUnit', 'a zero-width space', (w) => ({ propertyId: w.propertyId, name: 'Tow\u200ber' }), ['name']],
    ['renameUnit', 'a zero-width joiner', (w) => ({ propertyUnitId: w.unitA, name: 'A\u200d' }), ['name']],
    ['createUnit', 'an unknown key', (w) => ({ propertyId: w.propertyId, name: 'Tower', floors: 3 }), ['floors']],
    ['createUnit', 'no propertyId', () => ({ name: 'Tower' }), ['propertyId']],
    ['renameUnit', 'an empty name', (w) => ({ propertyUnitId: w.unitA, name: '' }), ['name']],
    ['renameUnit', 'a number for a name', (w) => ({ propertyUnitId: w.unitA, name: 7 }), ['name']],
    ['renameUnit', 'unitId instead of propertyUnitId', (w) => ({ unitId: w.unitA, name: 'C' }), ['propertyUnitId', 'unitId']],
    ['deleteUnit', 'a negative count', (w) => ({ propertyUnitId: w.unitA, expectedItemCount: -1 }), ['expectedItemCount']],
    ['deleteUnit', 'a fractional count', (w) => ({ propertyUnitId: w.unitA, expectedItemCount: 1.5 }), ['expectedItemCount']],
    ['deleteUnit', 'a count as text', (w) => ({ propertyUnitId: w.unitA, expectedItemCount: '0' }), ['expectedItemCount']],
    ['deleteUnit', 'force instead of a count', (w) => ({ propertyUnitId: w.unitA, force: true }), ['force']],
  ])('%s with %s → BAD_REQUEST naming the field, nothing changes', async (procedure, _what, input, paths) => {
    const result = await ctx.call(procedure, input(ctx.world), ctx.world.owner);
    expect(outcomeOf(result)).toEqual([400, 'BAD_REQUEST']);
    expect(issuePathsOf(result).sort()).toEqual(paths);
    expect(await unitNames(ctx.world.propertyId)).toEqual(['A', 'B']);
  });

  test('a 100-character name is accepted (the bound counts after trimming)', async () => {
    const name = 'y'.repeat(100);
    expect(dataOf(await ctx.call('createUnit', { propertyId: ctx.world.propertyId, name: ` ${name} ` }, ctx.world.owner)).name).toBe(name);
  });
});

describe('authorization', () => {
  interface Case {
    procedure: UnitProcedure;
    input: (w: InventoryWorld, unitId: string, name: string) => unknown;
  }
  const cases: Case[] = [
    { procedure: 'createUnit', input: (w, _unitId, name) => ({ propertyId: w.propertyId, name }) },
    { procedure: 'renameUnit', input: (_w, propertyUnitId, name) => ({ propertyUnitId, name }) },
    { procedure: 'deleteUnit', input: (_w, propertyUnitId) => ({ propertyUnitId, expectedItemCount: 1 }) },
  ];

  /** A unit of the world's property holding one item, so deleteUnit has something to remove. */
  async function seededUnit(name: string): Promise<string> {
    const unit = await createPropertyUnit(ctx.db, { propertyId: ctx.world.propertyId, name });
    await createInventoryItem(ctx.db, { propertyUnitId: unit.id });
    return unit.id;
  }

  async function snapshot() {
    return ctx.db.propertyUnit.findMany({ where: { propertyId: ctx.world.propertyId }, include: { items: true }, orderBy: { id: 'asc' } });
  }

  test.each(cases)('$procedure without a session or with a forged one → UNAUTHORIZED, nothing changes', async ({ procedure, input }) => {
    const unitId = await seededUnit('Seeded');
    const before = await snapshot();
    expect(outcomeOf(await ctx.call(procedure, input(ctx.world, unitId, 'New')))).toEqual([401, 'UNAUTHORIZED']);
    expect(outcomeOf(await ctx.call(procedure, input(ctx.world, unitId, 'New'), { cookie: 'sid=forged-token' }))).toEqual([401, 'UNAUTHORIZED']);
    expect(await snapshot()).toEqual(before);
  });

  test.each(cases)('$procedure by an unrelated agent → NOT_FOUND worded as for an id that does not exist', async ({ procedure, input }) => {
    const unitId = await seededUnit('Seeded');
    const before = await snapshot();
    const refused = await ctx.call(procedure, input(ctx.world, unitId, 'New'), ctx.world.unrelated);
    expect(outcomeOf(refused)).toEqual([404, 'NOT_FOUND']);
    const missing = await ctx.call(procedure, input({ ...ctx.world, propertyId: 'no-such-property' }, 'no-such-unit', 'New'), ctx.world.unrelated);
    expect(outcomeOf(missing)).toEqual([404, 'NOT_FOUND']);
    const message = (result: CallResult) => (result.ok ? '' : result.error.message);
    expect(message(refused)).toBe(message(missing));
    expect(await snapshot()).toEqual(before);
  });

  test.each(cases)('$procedure by owner, assigned agent and admin succeeds', async ({ procedure, input }) => {
    const users: SignedInUser[] = [ctx.world.owner, ctx.world.assigned, ctx.world.admin];
    for (const [i, user] of users.entries()) {
      const unitId = await seededUnit(`Seeded ${i}`);
      expect([user.role, outcomeOf(await ctx.call(procedure, input(ctx.world, unitId, `New ${i}`), user))]).toEqual([user.role, [200, 'OK']]);
    }
  });
});

test('no request in this file was logged as a failure', () => {
  expect(ctx.logs.lines).toEqual([]);
});
