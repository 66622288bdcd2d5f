import { Prisma, queryPreparedRows, queryRows } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { accessiblePropertySql } from '../access/property-access';
import { ITEM_NOT_FOUND } from './item-records';
import type { InventoryContext } from './item-records';
import { BULK_STATEMENT_INCOMPLETE, postgresErrorCode, retryDeadlockVictim } from './postgres-errors';

/**
 * True for an inventory item row aliased `alias` that the actor may change: its unit belongs to a
 * property the actor may manage. An ADMIN may change every item, and each item has a unit.
 */
export function accessibleItemSql(actor: InventoryContext['actor'], alias: string): Prisma.Sql {
  if (actor.role === 'ADMIN') return Prisma.sql`TRUE`;
  return Prisma.sql`${Prisma.raw(`"${alias}"`)}."propertyUnitId" IN (${accessibleUnitsSql(actor)})`;
}

/**
 * The rows of a data-modifying CTE `cte` (which returns "propertyUnitId") whose unit the actor may
 * change, judged after the statement reached them: only the few distinct units among them are
 * looked up, not every unit of the actor's portfolio. Only for a DELETE: an UPDATE would first
 * change another agent's row, and its failure there (a price out of range) would tell the caller
 * something about that row.
 */
export function accessibleRowsOfSql(actor: InventoryContext['actor'], cte: string): Prisma.Sql {
  const rows = Prisma.raw(`"${cte}"`);
  if (actor.role === 'ADMIN') return Prisma.sql`SELECT 1 FROM ${rows}`;
  return Prisma.sql`SELECT 1 FROM ${rows} r WHERE r."propertyUnitId" IN (
    ${accessibleUnitsSql(actor, Prisma.sql`SELECT "propertyUnitId" FROM ${rows}`)})`;
}

/** The ids of the units in properties the actor may manage; with `among`, only those it selects. */
function accessibleUnitsSql(actor: InventoryContext['actor'], among?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT u."id" FROM "property_units" u
    JOIN "properties" p ON p."id" = u."propertyId"
    WHERE ${accessiblePropertySql(actor, 'p')}${among === undefined ? Prisma.empty : Prisma.sql` AND u."id" IN (${among})`}`;
}

/**
 * The all-or-nothing guard over the rows of CTE `cte` (those a data-modifying CTE returned, or the
 * ones among them {@link accessibleRowsOfSql} keeps), as a condition: true when there are all
 * `requested` rows, else it raises SB001 (`bulk_statement_incomplete`, migration 0014), which ends
 * the statement with none of its changes applied.
 */
export function everyItemReached(cte: string, requested: number): Prisma.Sql {
  return Prisma.sql`(SELECT CASE WHEN count(*) = ${requested} THEN TRUE
    ELSE "bulk_statement_incomplete"(${requested}, count(*)) > 0 END FROM ${Prisma.raw(`"${cte}"`)})`;
}

/** The property of the item row aliased `alias`, for records: one unit lookup by primary key. */
export function unitPropertyIdSql(alias: string): Prisma.Sql {
  return Prisma.sql`(SELECT u."propertyId" FROM "property_units" u WHERE u."id" = ${Prisma.raw(`"${alias}"`)}."propertyUnitId")`;
}

/**
 * Runs a bulk statement guarded by {@link everyItemReached} for `ids`: again while Postgres picks
 * it as a deadlock victim, and with the guard's SB001 turned into the NOT_FOUND naming the ids
 * that are missing or not the actor's. `prepared`: as a prepared statement (see
 * {@link queryPreparedRows} for when that pays).
 */
export async function runAllOrNothing<Row extends object>(
  context: InventoryContext,
  ids: string[],
  statement: Prisma.Sql,
  options: { prepared?: boolean } = {},
): Promise<Row[]> {
  const query = options.prepared === true ? queryPreparedRows : queryRows;
  try {
    return await retryDeadlockVictim(() => query<Row>(context.db, statement));
  } catch (error) {
    if (postgresErrorCode(error) === BULK_STATEMENT_INCOMPLETE) throw await missingItemsError(context, ids);
    throw error;
  }
}

/**
 * Error path only: NOT_FOUND naming the ids (by position in the deduplicated list) that do not
 * exist or are not the actor's; both read the same, so nothing about other agents leaks.
 */
async function missingItemsError({ db, actor }: InventoryContext, ids: string[]): Promise<AppError> {
  const found = await db.$queryRaw<{ id: string }[]>`
    SELECT i."id" FROM "inventory_items" i
    WHERE i."id" = ANY(${ids}::text[]) AND ${accessibleItemSql(actor, 'i')}`;
  const foundIds = new Set(found.map((row) => row.id));
  const issues = ids.flatMap((id, index) => (foundIds.has(id) ? [] : [{ path: ['ids', index], message: ITEM_NOT_FOUND }]));
  return new AppError(ErrorCode.NOT_FOUND, ITEM_NOT_FOUND, issues.length === 0 ? {} : { issues });
}
