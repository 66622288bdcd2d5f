import type { ListUnitsInput, ListUnitsResult, PropertyUnitRecord } from '@staging/contracts/inventory';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { decodePageCursor, encodePageCursor } from '@staging/domain/page-cursor';
import { Prisma } from '@staging/db/client';
import { accessiblePropertySql, PROPERTY_NOT_FOUND } from '../access/property-access';
import type { InventoryContext } from './item-records';

/** A page row; `propertyUnitId` is null on the one row of a property with no unit after the cursor. */
type UnitPageRow = { [K in keyof PropertyUnitRecord]: PropertyUnitRecord[K] | null };

/**
 * inventory.listUnits: one page of the property's units, in getUnits' order (creation time, then
 * id), walked on the index ("propertyId", "createdAt", "id"). One statement also checks access:
 * no row at all means not found or not the actor's.
 */
export async function listInventoryUnits({ db, actor }: InventoryContext, input: ListUnitsInput): Promise<ListUnitsResult> {
  const after = input.cursor === null || input.cursor === undefined ? undefined : decodePageCursor(input.cursor);
  const afterSql =
    after === undefined ? Prisma.empty : Prisma.sql`AND (u."createdAt", u."id") > (${after.key}::timestamptz, ${after.id})`;
  const rows = await db.$queryRaw<UnitPageRow[]>`
    SELECT u."id" AS "propertyUnitId", p."id" AS "propertyId", u."name",
      to_char(u."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
    FROM "properties" p
    LEFT JOIN LATERAL (
      SELECT u."id", u."name", u."createdAt" FROM "property_units" u
      WHERE u."propertyId" = p."id" ${afterSql}
      ORDER BY u."createdAt", u."id" LIMIT ${input.limit + 1}
    ) u ON TRUE
    WHERE p."id" = ${input.propertyId} AND ${accessiblePropertySql(actor, 'p')}`;
  if (rows.length === 0) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
  const units = rows.filter((row): row is PropertyUnitRecord => row.propertyUnitId !== null);
  const page = units.slice(0, input.limit);
  const last = page.at(-1);
  return {
    propertyId: input.propertyId,
    units: page,
    nextCursor: units.length > input.limit && last !== undefined ? encodePageCursor({ key: last.createdAt, id: last.propertyUnitId }) : null,
  };
}
