import { Prisma, queryRows } from '@staging/db/client';
import type { BulkDeleteInput, BulkDeleteResult } from '@staging/domain/inventory';
import { allTargeted, lockedTargetCte, missingItemsError } from './item-set-access';
import type { InventoryContext } from './item-records';

/**
 * inventory.bulkDelete: all requested items or none, in one locking DELETE statement, sent
 * without the ORM (hundreds of ids in, hundreds of rows out is where its cost shows).
 */
export async function bulkDeleteInventoryItems(
  context: InventoryContext,
  input: BulkDeleteInput,
): Promise<BulkDeleteResult> {
  const { ids } = input;
  const rows = await queryRows<{ id: string }>(
    context.db,
    Prisma.sql`
      WITH ${lockedTargetCte(context, ids)}
      DELETE FROM "inventory_items" t
      USING target
      WHERE t."id" = target."id" AND ${allTargeted(ids)}
      RETURNING t."id"`,
  );
  if (rows.length !== ids.length) throw await missingItemsError(context, ids);
  return { itemIds: ids, count: ids.length };
}
