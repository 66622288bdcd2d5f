import { Prisma } from '@staging/db/client';
import type { BulkDeleteInput, BulkDeleteResult } from '@staging/domain/inventory';
import { accessibleItemSql, everyItemReached, runAllOrNothing } from './item-set-access';
import type { InventoryContext } from './item-records';

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
  await runAllOrNothing(context, ids, statement);
  return { itemIds: ids, count: ids.length };
}
