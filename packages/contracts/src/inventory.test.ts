import { describe, expect, test } from '@jest/globals';
import { INVENTORY_LIMITS } from '@staging/domain/inventory';
import {
  ZBulkCreateInput,
  ZBulkDeleteInput,
  ZBulkUpdateInput,
  ZCreateItemInput,
  ZCreateUnitInput,
  ZRenameUnitInput,
  ZUpdateItemInput,
} from './inventory';

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return (result.error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('create input', () => {
  const base = { propertyUnitId: 'unit-1', unitNumber: '101' };

  test('unitNumber is trimmed, then must be 1..100 characters', () => {
    expect(ZCreateItemInput.parse({ ...base, unitNumber: '  7B  ' }).unitNumber).toBe('7B');
    expect(ZCreateItemInput.safeParse({ ...base, unitNumber: 'x'.repeat(100) }).success).toBe(true);
    expect(ZCreateItemInput.safeParse({ ...base, unitNumber: ` ${'x'.repeat(100)} ` }).success).toBe(true);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, unitNumber: 'x'.repeat(101) }))).toEqual(['unitNumber']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, unitNumber: '' }))).toEqual(['unitNumber']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, unitNumber: '   ' }))).toEqual(['unitNumber']);
  });

  test('text that Postgres cannot store exactly is refused', () => {
    for (const unitNumber of ['a\u0000b', 'a\uD800b', 'line\nbreak', 'tab\there']) {
      expect(issuePaths(ZCreateItemInput.safeParse({ ...base, unitNumber }))).toEqual(['unitNumber']);
    }
    expect(ZCreateItemInput.safeParse({ ...base, unitNumber: 'emoji 😀' }).success).toBe(true);
    expect(ZCreateItemInput.safeParse({ ...base, notes: 'line\nbreak\ttab' }).success).toBe(true);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, notes: 'nul\u0000' }))).toEqual(['notes']);
  });

  test('notes up to 500 characters or null, kept verbatim', () => {
    expect(ZCreateItemInput.parse({ ...base, notes: ` ${'n'.repeat(498)} ` }).notes).toBe(` ${'n'.repeat(498)} `);
    expect(ZCreateItemInput.parse({ ...base, notes: null }).notes).toBeNull();
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, notes: 'n'.repeat(501) }))).toEqual(['notes']);
  });

  test('numbers must be finite; priceAdjustment within numeric(14,2)', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', true]) {
      expect(issuePaths(ZCreateItemInput.safeParse({ ...base, floor: bad }))).toEqual(['floor']);
      expect(issuePaths(ZCreateItemInput.safeParse({ ...base, priceAdjustment: bad }))).toEqual(['priceAdjustment']);
    }
    expect(ZCreateItemInput.safeParse({ ...base, floor: -2.5, priceAdjustment: -INVENTORY_LIMITS.priceAbsMax }).success).toBe(true);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, priceAdjustment: 1e12 }))).toEqual(['priceAdjustment']);
    expect(ZCreateItemInput.safeParse({ ...base, floor: 10_000 }).success).toBe(true);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, floor: -10_000.5 }))).toEqual(['floor']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, floor: Number.MAX_VALUE }))).toEqual(['floor']);
  });

  test('unknown keys and enum values are refused', () => {
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, extra: 1 }))).toEqual(['']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, status: 'LEASED' }))).toEqual(['status']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, status: 'available' }))).toEqual(['status']);
  });

  test('ids: 1..64 characters, never trimmed', () => {
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, propertyUnitId: '' }))).toEqual(['propertyUnitId']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, propertyUnitId: 'u'.repeat(65) }))).toEqual(['propertyUnitId']);
    expect(issuePaths(ZCreateItemInput.safeParse({ ...base, propertyUnitId: ' u ' }))).toEqual(['propertyUnitId']);
  });
});

describe('labels (unit names and unit numbers)', () => {
  const name = (value: string) => ZCreateUnitInput.safeParse({ propertyId: 'p', name: value });
  const unitNumber = (value: string) => ZCreateItemInput.safeParse({ propertyUnitId: 'u', unitNumber: value });

  test('are NFKC-normalized, so width and no-break-space look-alikes become the plain name', () => {
    for (const lookAlike of ['Tower\u00a0B', 'Ｔｏｗｅｒ Ｂ', '\u3000Tower B\u00a0', 'Tower\u2002B']) {
      expect(ZCreateUnitInput.parse({ propertyId: 'p', name: lookAlike }).name).toBe('Tower B');
      expect(ZRenameUnitInput.parse({ propertyUnitId: 'u', name: lookAlike }).name).toBe('Tower B');
      expect(ZCreateItemInput.parse({ propertyUnitId: 'u', unitNumber: lookAlike }).unitNumber).toBe('Tower B');
    }
    expect(ZCreateUnitInput.parse({ propertyId: 'p', name: 'Bloque Ñ (ático) 😀' }).name).toBe('Bloque Ñ (ático) 😀');
  });

  test('refuse controls, bidirectional and zero-width characters with a clear issue', () => {
    const hidden = ['Tower\u0085B', 'Tower \u202eB', 'Tower \u2066B\u2069', 'Tower\u2067B', 'Tower\u2068B', 'Tow\u200ber', 'Tow\u200cer', 'Tow\u200der', 'Tow\u2060er', 'Tower\ufeffB', 'Tower\u200fB', 'Tower\u061cB', 'Tower\u2028B', 'Tower\u00adB', 'Tower\u009bB'];
    for (const value of hidden) {
      const result = name(value);
      expect([value, issuePaths(result)]).toEqual([value, ['name']]);
      expect(result.error?.issues[0]?.message).toMatch(/invisible formatting characters \(zero-width, bidirectional\)/);
      expect([value, issuePaths(unitNumber(value))]).toEqual([value, ['unitNumber']]);
    }
  });

  test('are measured after normalization', () => {
    // U+FDFA becomes an 18-character phrase under NFKC.
    expect(issuePaths(name('\ufdfa'.repeat(6)))).toEqual(['name']);
    expect(name('\ufdfa'.repeat(5)).success).toBe(true);
  });
});

describe('update input', () => {
  test('unitNumber has no minimum on update (docs/system.md 4.4) but the same maximum', () => {
    expect(ZUpdateItemInput.parse({ itemId: 'i', unitNumber: '' }).unitNumber).toBe('');
    expect(ZUpdateItemInput.parse({ itemId: 'i', unitNumber: 'x'.repeat(100) }).unitNumber).toHaveLength(100);
    expect(issuePaths(ZUpdateItemInput.safeParse({ itemId: 'i', unitNumber: 'x'.repeat(101) }))).toEqual(['unitNumber']);
  });
});

describe('bulkCreate input', () => {
  test("an item's own propertyUnitId wins over the top-level one", () => {
    const parsed = ZBulkCreateInput.parse({
      propertyUnitId: 'top',
      items: [{ unitNumber: '1' }, { unitNumber: '2', propertyUnitId: 'own' }],
    });
    expect(parsed.items.map((item) => [item.propertyUnitId, item.unitFrom])).toEqual([
      ['top', 'top'],
      ['own', 'item'],
    ]);
  });

  test('an item with no unit anywhere is named in the issue path', () => {
    const result = ZBulkCreateInput.safeParse({ items: [{ unitNumber: '1', propertyUnitId: 'u' }, { unitNumber: '2' }] });
    expect(issuePaths(result)).toEqual(['items.1.propertyUnitId']);
  });

  test('1..500 items; notes as on create, unknown fields refused', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ unitNumber: String(i) }));
    expect(ZBulkCreateInput.safeParse({ propertyUnitId: 'u', items: items(1) }).success).toBe(true);
    expect(ZBulkCreateInput.safeParse({ propertyUnitId: 'u', items: items(500) }).success).toBe(true);
    expect(issuePaths(ZBulkCreateInput.safeParse({ propertyUnitId: 'u', items: items(0) }))).toEqual(['items']);
    expect(issuePaths(ZBulkCreateInput.safeParse({ propertyUnitId: 'u', items: items(501) }))).toEqual(['items']);
    expect(ZBulkCreateInput.parse({ propertyUnitId: 'u', items: [{ unitNumber: '1', notes: ' two\nlines ' }] }).items[0]?.notes).toBe(' two\nlines ');
    expect(issuePaths(ZBulkCreateInput.safeParse({ propertyUnitId: 'u', items: [{ unitNumber: '1', notes: 'n'.repeat(501) }] }))).toEqual(['items.0.notes']);
    expect(issuePaths(ZBulkCreateInput.safeParse({ propertyUnitId: 'u', items: [{ unitNumber: '1', note: 'x' }] }))).toEqual(['items.0']);
  });
});

describe('bulkUpdate input', () => {
  const ids = ['a', 'b'];

  test('each action gets exactly its fields', () => {
    expect(ZBulkUpdateInput.parse({ ids, action: 'status', status: 'SOLD' }).change).toEqual({ action: 'status', status: 'SOLD' });
    expect(ZBulkUpdateInput.parse({ ids, action: 'floor', floor: null }).change).toEqual({ action: 'floor', floor: null });
    expect(ZBulkUpdateInput.parse({ ids, action: 'price', type: 'decrease', amount: 5 }).change).toEqual({
      action: 'price',
      type: 'decrease',
      amount: 5,
    });
  });

  test.each([
    [{ action: 'status' }, ['status']],
    [{ action: 'status', status: 'SOLD', floor: 1 }, ['floor']],
    [{ action: 'floor' }, ['floor']],
    [{ action: 'floor', floor: 2, amount: 1 }, ['amount']],
    [{ action: 'price', type: 'set' }, ['amount']],
    [{ action: 'price', amount: 3 }, ['type']],
    [{ action: 'price', type: 'set', amount: 3, status: 'SOLD' }, ['status']],
    [{ action: 'price', type: 'set', amount: null }, ['amount']],
    [{ action: 'price', type: 'raise', amount: 1 }, ['type']],
    [{ action: 'rename' }, ['action']],
  ])('%j is refused naming %j', (change, paths) => {
    expect(issuePaths(ZBulkUpdateInput.safeParse({ ids, ...change }))).toEqual(paths);
  });

  test('ids: at least 1, at most 1000, deduplicated in first-seen order', () => {
    expect(issuePaths(ZBulkDeleteInput.safeParse({ ids: [] }))).toEqual(['ids']);
    expect(ZBulkDeleteInput.parse({ ids: ['b', 'a', 'b'] }).ids).toEqual(['b', 'a']);
    const many = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
    expect(issuePaths(ZBulkDeleteInput.safeParse({ ids: many }))).toEqual(['ids']);
    expect(ZBulkDeleteInput.safeParse({ ids: many.slice(0, 1000) }).success).toBe(true);
  });
});
