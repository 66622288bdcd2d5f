import { Prisma, queryRows } from '@staging/db/client';
import type { BulkDeleteInput, BulkDeleteResult } from '@staging/domain/inventory';
import { accessibleItemSql, everyItemReached, missingItemsError } from './item-set-access';
import type { InventoryContext } from './item-records';
import { BULK_STATEMENT_INCOMPLETE, postgresErrorCode, retryDeadlockVictim } from './postgres-errors';

/**
 * inventory.bulkDelete: all requested items or none, in one DELETE sent without the ORM. It
 * deletes the requested items the actor may change and, when that is not every one of them, raises
 * SB001, which ends the statement with nothing deleted. No separate locking pass (it wrote every
 * row twice): rows are locked as the DELETE reaches them, in the planner's order, so a deadlock
 * with an overlapping bulk call is possible and its victim is run again.
 */
export async function bulkDeleteInventoryItems(
  context: InventoryContext,
  input: BulkDeleteInput,
): Promise<BulkDeleteResult> {
  const { ids } = input;
  const statement = Prisma.sql`
    WITH deleted AS (
      DELETE FROM "inventory_items" t
      WHERE t."id" = ANY(${ids}::text[]) AND ${accessibleItemSql(context.actor, 't')}
      RETURNING 1
    )
    SELECT ${everyItemReached('deleted', ids.length)}`;
  try {
    await retryDeadlockVictim(() => queryRows(context.db, statement));
  } catch (error) {
    if (postgresErrorCode(error) === BULK_STATEMENT_INCOMPLETE) throw await missingItemsError(context, ids);
    throw error;
  }
  return { itemIds: ids, count: ids.length };
}
