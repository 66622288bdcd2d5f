// fast-check arbitraries for the inventory procedures. Every field is mostly valid and sometimes
// hostile (boundary lengths, NUL, lone surrogates, NaN/±Infinity/-0, huge numbers, wrong types,
// unknown keys), so that about half the inputs pass validation and reach the database while the
// rest probe every refusal path; a tenth of all inputs are entirely random values.
import fc from 'fast-check';
import { INVENTORY_STATUSES } from '@staging/domain/inventory';

/** Ids known to the database (properties, units, items); read at generation time, so they grow. */
export interface IdPools {
  propertyIds: string[];
  unitIds: string[];
  itemIds: string[];
}

const NASTY_STRINGS = ['', ' ', '\u0000', 'a\u0000b', '\uD800', 'x\uDC00', '\uFEFF', '\u202Eevil', '\t\n', "'; DROP TABLE x; --"];

/** A valid value most of the time (`weight` to 1), a hostile one otherwise. */
function mostly<T, U>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<U>, weight = 8): fc.Arbitrary<T | U> {
  return fc.oneof({ weight, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

/** Hostile text: nasty constants, lengths around the 100/500 limits, arbitrary code points. */
export const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...NASTY_STRINGS),
  fc.integer({ min: 99, max: 102 }).map((n) => 'u'.repeat(n)),
  fc.integer({ min: 499, max: 502 }).map((n) => 'n'.repeat(n)),
  fc.string({ unit: 'grapheme', minLength: 95, maxLength: 105 }),
);

/** Hostile values where a number belongs. */
export const hostileNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(
    -0,
    10_000.0001,
    -10_000.5,
    999_999_999_999.99,
    -999_999_999_999.99,
    1e12,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
  fc.oneof(fc.string({ maxLength: 5 }), fc.boolean(), fc.constant([1]), fc.constant({})),
);

const hostileValue = fc.oneof(hostileText, hostileNumber, fc.constant(null), fc.constant(undefined));

const floor = mostly(fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double({ min: -10_000, max: 10_000, noNaN: true }), fc.constant(null)), hostileNumber);
const price = mostly(fc.oneof(fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => cents / 100), fc.constant(null)), hostileNumber);
const amount = mostly(fc.integer({ min: -1_000_000, max: 1_000_000 }).map((cents) => cents / 100), hostileNumber);
const status = mostly(fc.constantFrom(...INVENTORY_STATUSES), fc.oneof(fc.constantFrom('available', 'LEASED', '', null), fc.string({ maxLength: 8 })));
const notes = mostly(fc.oneof(fc.string({ maxLength: 60 }), fc.constant(null)), hostileText);
const unitNumber = mostly(
  fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom('', ' ', '  ')).map(([n, pad]) => `${pad}${n}${pad}`),
  hostileText,
);

/** Sometimes adds an unknown key (strict objects must refuse it). */
function withMaybeExtraKey<T extends Record<string, unknown>>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc
    .tuple(arb, fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('extra', 'unitNo', '__proto__', 'constructor', 'notes') }))
    .map(([value, key]) => (key === null ? value : { ...value, [key]: 1 }));
}

/** Mostly a procedure-shaped input, sometimes anything at all. */
function shapedOrAnything<T>(shaped: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 12, arbitrary: shaped }, { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) });
}

export function inventoryArbitraries(ids: IdPools) {
  const fromPool = (pool: () => string[]) => fc.constant(null).chain(() => fc.constantFrom(...pool()));
  const propertyId = mostly(fromPool(() => ids.propertyIds), hostileValue);
  const unitId = mostly(fromPool(() => ids.unitIds), hostileValue);
  const itemId = mostly(fromPool(() => ids.itemIds), hostileValue);
  const itemIdList = mostly(
    fc.array(fromPool(() => ids.itemIds), { minLength: 1, maxLength: 5 }),
    fc.oneof(
      fc.constant([]),
      fc.array(itemId, { maxLength: 4 }),
      fc.integer({ min: 1000, max: 1001 }).map((n) => Array.from({ length: n }, (_, i) => `id-${i}`)),
      hostileValue,
    ),
  );
  // Items of a bulk call are hostile more rarely: one bad item refuses the whole call, and the
  // valid path should still be reached often.
  const bulkItem = mostly(
    fc.record(
      {
        propertyUnitId: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fromPool(() => ids.unitIds) }),
        unitNumber: fc.integer({ min: 0, max: 10_000_000 }).map(String),
        floor: fc.option(fc.integer({ min: -3, max: 60 })),
        status: fc.option(fc.constantFrom(...INVENTORY_STATUSES), { nil: undefined }),
        priceAdjustment: fc.option(fc.integer({ min: -100_000, max: 100_000 }).map((cents) => cents / 100)),
      },
      { requiredKeys: ['unitNumber'] },
    ),
    withMaybeExtraKey(
      fc.record({ propertyUnitId: unitId, unitNumber, floor, status, priceAdjustment: price }, { requiredKeys: ['unitNumber'] }),
    ),
    30,
  );
  const bulkUpdateChange = mostly(
    fc.oneof(
      fc.record({ action: fc.constant('status'), status }),
      fc.record({ action: fc.constant('floor'), floor }),
      fc.record({ action: fc.constant('price'), type: fc.constantFrom('set', 'increase', 'decrease'), amount }),
    ),
    fc.record(
      { action: fc.oneof(fc.constantFrom('status', 'floor', 'price'), hostileText), status, floor, type: fc.oneof(fc.constantFrom('set', 'increase', 'decrease'), hostileText), amount },
      { requiredKeys: [] },
    ),
  );

  return {
    getUnits: shapedOrAnything(withMaybeExtraKey(fc.record({ propertyId }))),
    create: shapedOrAnything(
      withMaybeExtraKey(
        fc.record(
          { propertyUnitId: unitId, unitNumber, floor, status, priceAdjustment: price, notes },
          { requiredKeys: ['propertyUnitId', 'unitNumber'] },
        ),
      ),
    ),
    update: shapedOrAnything(
      withMaybeExtraKey(
        fc.record({ itemId, unitNumber, floor, status, priceAdjustment: price, notes }, { requiredKeys: ['itemId'] }),
      ),
    ),
    delete: shapedOrAnything(withMaybeExtraKey(fc.record({ itemId }))),
    bulkCreate: shapedOrAnything(
      withMaybeExtraKey(
        fc.record(
          {
            propertyUnitId: unitId,
            propertyId,
            items: mostly(
              fc.array(bulkItem, { minLength: 1, maxLength: 8 }),
              fc.oneof(
                fc.constant([]),
                fc.integer({ min: 500, max: 501 }).map((n) => Array.from({ length: n }, (_, i) => ({ unitNumber: `bulk-${i}` }))),
                hostileValue,
              ),
            ),
          },
          { requiredKeys: ['propertyUnitId', 'items'] },
        ),
      ),
    ),
    bulkUpdate: shapedOrAnything(
      withMaybeExtraKey(fc.tuple(itemIdList, bulkUpdateChange).map(([list, change]) => ({ ids: list, ...change }))),
    ),
    bulkDelete: shapedOrAnything(withMaybeExtraKey(fc.record({ ids: itemIdList }))),
  };
}
