import type { InventoryItemRecord, ListItemsInput, ListItemsResult } from '@staging/contracts/inventory';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { decodePageCursor, encodePageCursor } from '@staging/domain/page-cursor';
import { Prisma } from '@staging/db/client';
import { accessiblePropertySql } from '../access/property-access';
import { itemRecordColumns, UNIT_NOT_FOUND } from './item-records';
import type { InventoryContext } from './item-records';

/**
 * inventory.listItems: one page of a unit's items in getUnits' order (unitNumber in code-point
 * order, then id), a range scan of the index ("propertyUnitId", "unitNumber" COLLATE "C", "id")
 * from the cursor: the same cost on the first page and the thousandth.
 */
export async function listInventoryItems({ db, actor }: InventoryContext, input: ListItemsInput): Promise<ListItemsResult> {
  const [unit] = await db.$queryRaw<{ propertyId: string }[]>`
    SELECT u."propertyId" FROM "property_units" u JOIN "properties" p ON p."id" = u."propertyId"
    WHERE u."id" = ${input.propertyUnitId} AND ${accessiblePropertySql(actor, 'p')}`;
  if (unit === undefined) throw new AppError(ErrorCode.NOT_FOUND, UNIT_NOT_FOUND);

  const after = input.cursor === null || input.cursor === undefined ? undefined : decodePageCursor(input.cursor);
  // Both sides of the comparison in the index's collation, so it bounds the index scan.
  const afterSql =
    after === undefined ? Prisma.empty : Prisma.sql`AND (i."unitNumber" COLLATE "C", i."id") > (${after.key} COLLATE "C", ${after.id})`;
  const items = await db.$queryRaw<InventoryItemRecord[]>`
    SELECT ${itemRecordColumns('i', Prisma.sql`${unit.propertyId}::text`)}
    FROM "inventory_items" i
    WHERE i."propertyUnitId" = ${input.propertyUnitId} ${afterSql}
    ORDER BY i."unitNumber" COLLATE "C", i."id" LIMIT ${input.limit + 1}`;
  const page = items.slice(0, input.limit);
  const last = page.at(-1);
  return {
    propertyUnitId: input.propertyUnitId,
    items: page,
    nextCursor: items.length > input.limit && last !== undefined ? encodePageCursor({ key: last.unitNumber, id: last.itemId }) : null,
  };
}
