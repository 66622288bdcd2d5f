import { Prisma } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { accessiblePropertySql } from '../access/property-access';
import { ITEM_NOT_FOUND } from './item-records';
import type { InventoryContext } from './item-records';

/**
 * The CTE `target(id, "propertyId")` of bulkUpdate: the requested items the actor may
 * change, row-locked so that no concurrent statement changes or deletes them before ours. Locks
 * are taken in id order, so two bulkUpdates over overlapping sets queue instead of deadlocking.
 * The UPDATE acts only when `target` holds every requested id (see {@link allTargeted}).
 */
export function lockedTargetCte({ actor }: InventoryContext, ids: string[]): Prisma.Sql {
  return Prisma.sql`target AS (
    SELECT i."id", u."propertyId"
    FROM "inventory_items" i
    JOIN "property_units" u ON u."id" = i."propertyUnitId"
    JOIN "properties" p ON p."id" = u."propertyId"
    WHERE i."id" = ANY(${ids}::text[]) AND ${accessiblePropertySql(actor, 'p')}
    ORDER BY i."id"
    FOR UPDATE OF i
  )`;
}

/**
 * True for an inventory item row aliased `alias` that the actor may change: its unit belongs to a
 * property the actor may manage. An ADMIN may change every item, and each item has a unit.
 */
export function accessibleItemSql(actor: InventoryContext['actor'], alias: string): Prisma.Sql {
  if (actor.role === 'ADMIN') return Prisma.sql`TRUE`;
  return Prisma.sql`${Prisma.raw(`"${alias}"`)}."propertyUnitId" IN (
    SELECT u."id" FROM "property_units" u
    JOIN "properties" p ON p."id" = u."propertyId"
    WHERE ${accessiblePropertySql(actor, 'p')})`;
}

/** The all-or-nothing guard: true only when the actor may change every requested item. */
export function allTargeted(ids: string[]): Prisma.Sql {
  return Prisma.sql`(SELECT count(*) FROM target) = ${ids.length}`;
}

/**
 * Error path only: NOT_FOUND naming the ids (by position in the deduplicated list) that do not
 * exist or are not the actor's; both read the same, so nothing about other agents leaks.
 */
export async function missingItemsError({ db, actor }: InventoryContext, ids: string[]): Promise<AppError> {
  const found = await db.$queryRaw<{ id: string }[]>`
    SELECT i."id" FROM "inventory_items" i
    WHERE i."id" = ANY(${ids}::text[]) AND ${accessibleItemSql(actor, 'i')}`;
  const foundIds = new Set(found.map((row) => row.id));
  const issues = ids.flatMap((id, index) => (foundIds.has(id) ? [] : [{ path: ['ids', index], message: ITEM_NOT_FOUND }]));
  return new AppError(ErrorCode.NOT_FOUND, ITEM_NOT_FOUND, issues.length === 0 ? {} : { issues });
}
