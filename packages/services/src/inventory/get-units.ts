import type { GetUnitsInput, GetUnitsResult, InventoryUnitRecord } from '@staging/contracts/inventory';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { GET_UNITS_MAX_ITEMS } from '@staging/domain/inventory';
import type { InventoryStatus } from '@staging/domain/inventory';
import { accessiblePropertySql, PROPERTY_NOT_FOUND } from '../access/property-access';
import type { InventoryContext } from './item-records';

interface UnitColumns {
  unitId: string;
  unitName: string;
  unitCreatedAt: Date;
}

interface ItemColumns {
  itemId: string;
  unitNumber: string;
  floor: number | null;
  status: InventoryStatus;
  priceAdjustment: number | null;
  notes: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Absent<Columns> = { [K in keyof Columns]: null };

/**
 * One row of the LEFT JOINs: a property without units yields one row of NULL unit and item
 * columns, a unit without items one row of NULL item columns.
 */
type UnitItemRow = (Absent<UnitColumns> & Absent<ItemColumns>) | (UnitColumns & (ItemColumns | Absent<ItemColumns>));

/**
 * inventory.getUnits: the property's units with their items. Order: units by creation time then
 * id (the order agents set them up in); items by unitNumber in code-point order (COLLATE "C", the
 * same on every database locale) then id. A property with more than {@link GET_UNITS_MAX_ITEMS}
 * items is refused before anything is read: its answer would take seconds and megabytes.
 */
export async function getInventoryUnits(
  { db, actor }: InventoryContext,
  input: GetUnitsInput,
): Promise<GetUnitsResult> {
  await assertWithinGetUnitsBound({ db, actor }, input.propertyId);
  const rows = await db.$queryRaw<UnitItemRow[]>`
    SELECT u."id" AS "unitId", u."name" AS "unitName", u."createdAt" AS "unitCreatedAt",
      i."id" AS "itemId", i."unitNumber", i."floor", i."status"::text AS "status",
      i."priceAdjustment"::float8 AS "priceAdjustment", i."notes", i."createdAt", i."updatedAt"
    FROM "properties" p
    LEFT JOIN "property_units" u ON u."propertyId" = p."id"
    LEFT JOIN "inventory_items" i ON i."propertyUnitId" = u."id"
    WHERE p."id" = ${input.propertyId} AND ${accessiblePropertySql(actor, 'p')}
    ORDER BY u."createdAt", u."id", i."unitNumber" COLLATE "C", i."id"`;
  if (rows.length === 0) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);

  const units: InventoryUnitRecord[] = [];
  let unit: InventoryUnitRecord | undefined;
  for (const row of rows) {
    if (row.unitId === null) break;
    if (unit === undefined || unit.propertyUnitId !== row.unitId) {
      unit = {
        propertyUnitId: row.unitId,
        propertyId: input.propertyId,
        name: row.unitName,
        createdAt: row.unitCreatedAt.toISOString(),
        items: [],
      };
      units.push(unit);
    }
    if (row.itemId === null) continue;
    unit.items.push({
      itemId: row.itemId,
      propertyUnitId: row.unitId,
      propertyId: input.propertyId,
      unitNumber: row.unitNumber,
      floor: row.floor,
      status: row.status,
      priceAdjustment: row.priceAdjustment,
      notes: row.notes,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    });
  }
  return { propertyId: input.propertyId, units };
}

/**
 * NOT_FOUND unless `actor` may read the property; RESULT_TOO_LARGE when it holds more than
 * {@link GET_UNITS_MAX_ITEMS} items. The count stops at the bound plus one, so it reads at most
 * that many index entries whatever the property's size; it walks each unit's items on their
 * index, since a join of all of the property's items lets the planner pick a scan of the whole
 * table when one property holds most of it.
 */
async function assertWithinGetUnitsBound({ db, actor }: Pick<InventoryContext, 'db' | 'actor'>, propertyId: string): Promise<void> {
  const [property] = await db.$queryRaw<{ items: number }[]>`
    SELECT (SELECT count(*) FROM (
      SELECT 1 FROM "property_units" u
      CROSS JOIN LATERAL (SELECT 1 FROM "inventory_items" i WHERE i."propertyUnitId" = u."id" LIMIT ${GET_UNITS_MAX_ITEMS + 1}) i
      WHERE u."propertyId" = p."id" LIMIT ${GET_UNITS_MAX_ITEMS + 1}) bounded)::int AS "items"
    FROM "properties" p
    WHERE p."id" = ${propertyId} AND ${accessiblePropertySql(actor, 'p')}`;
  if (property === undefined) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
  if (property.items > GET_UNITS_MAX_ITEMS) {
    throw new AppError(
      ErrorCode.RESULT_TOO_LARGE,
      `The property has more than ${GET_UNITS_MAX_ITEMS} inventory items, more than inventory.getUnits answers at once; read them a page at a time with inventory.listUnits and inventory.listItems`,
    );
  }
}
