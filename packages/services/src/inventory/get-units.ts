import { AppError, ErrorCode } from '@staging/domain/errors';
import type { GetUnitsInput, GetUnitsResult, InventoryStatus, InventoryUnitRecord } from '@staging/domain/inventory';
import { accessiblePropertySql, PROPERTY_NOT_FOUND } from '../access/property-access';
import type { InventoryContext } from './item-records';

interface UnitItemRow {
  unitId: string | null;
  unitName: string | null;
  unitCreatedAt: Date | null;
  itemId: string | null;
  unitNumber: string | null;
  floor: number | null;
  status: InventoryStatus | null;
  priceAdjustment: number | null;
  notes: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/**
 * inventory.getUnits: the property's units with their items, in one statement that also checks
 * access (no row at all = not found or not the actor's). Order: units by creation time then id
 * (the order agents set them up in); items by unitNumber in code-point order (COLLATE "C", the
 * same on every database locale) then id.
 */
export async function getInventoryUnits(
  { db, actor }: InventoryContext,
  input: GetUnitsInput,
): Promise<GetUnitsResult> {
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
    // A property without units yields one row of NULL unit columns.
    if (row.unitId === null) break;
    if (unit === undefined || unit.propertyUnitId !== row.unitId) {
      unit = {
        propertyUnitId: row.unitId,
        propertyId: input.propertyId,
        name: row.unitName as string,
        createdAt: (row.unitCreatedAt as Date).toISOString(),
        items: [],
      };
      units.push(unit);
    }
    if (row.itemId === null) continue;
    unit.items.push({
      itemId: row.itemId,
      propertyUnitId: row.unitId,
      propertyId: input.propertyId,
      unitNumber: row.unitNumber as string,
      floor: row.floor,
      status: row.status as InventoryStatus,
      priceAdjustment: row.priceAdjustment,
      notes: row.notes,
      createdAt: (row.createdAt as Date).toISOString(),
      updatedAt: (row.updatedAt as Date).toISOString(),
    });
  }
  return { propertyId: input.propertyId, units };
}
