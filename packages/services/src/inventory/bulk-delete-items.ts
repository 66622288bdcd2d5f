import type { BulkDeleteInput, BulkDeleteResult } from '@staging/contracts/inventory';
import { Prisma } from '@staging/db/client';
import { accessibleRowsOfSql, everyItemReached, runAllOrNothing } from './item-set-access';
import type { InventoryContext } from './item-records';

/**
 * inventory.bulkDelete: all requested items or none, in one DELETE sent without the ORM. It deletes
 * the requested items by key, then looks up the few units they were in; unless it deleted every
 * one of them and all are the actor's, it raises SB001, which rolls the whole statement back: an
 * agent's item among another's ids is deleted inside the statement and restored with it, and no
 * other session ever sees it gone.
 * Checked inside the DELETE, the access test was a join with every unit the actor may manage and
 * ran slower prepared (docs/decisions/inventory.md "Inventory authorization and atomicity"). No separate
 * locking pass (it wrote every row twice): rows are locked as the DELETE reaches them, in the
 * planner's order, so a deadlock with an overlapping bulk call is possible and its victim is run
 * again.
 */
export async function bulkDeleteInventoryItems(
  context: InventoryContext,
  input: BulkDeleteInput,
): Promise<BulkDeleteResult> {
  const { ids } = input;
  const statement = Prisma.sql`
    WITH deleted AS (
      DELETE FROM "inventory_items" t WHERE t."id" = ANY(${ids}::text[]) RETURNING t."propertyUnitId"
    ), reached AS (${accessibleRowsOfSql(context.actor, 'deleted')})
    SELECT ${everyItemReached('reached', ids.length)}`;
  await runAllOrNothing(context, ids, statement, { prepared: true });
  return { itemIds: ids, count: ids.length };
}
