import type { BulkItemsResult, BulkUpdateChange, BulkUpdateInput, InventoryItemRecord } from '@staging/contracts/inventory';
import { Prisma } from '@staging/db/client';
import { AppError, ErrorCode, IssueCode } from '@staging/domain/errors';
import { INVENTORY_LIMITS } from '@staging/domain/inventory';
import { accessibleItemSql, everyItemReached, runAllOrNothing, unitPropertyIdSql } from './item-set-access';
import { inKeyOrder, itemRecordColumns } from './item-records';
import type { InventoryContext } from './item-records';
import { NUMERIC_VALUE_OUT_OF_RANGE, postgresErrorCode } from './postgres-errors';

function assignment(change: BulkUpdateChange): Prisma.Sql {
  switch (change.action) {
    case 'status':
      return Prisma.sql`"status" = ${change.status}::"InventoryStatus"`;
    case 'floor':
      return Prisma.sql`"floor" = ${change.floor}::float8`;
    case 'price': {
      // Decimal text keeps the amount exact; numeric arithmetic, then numeric(14,2) rounding.
      const amount = Prisma.sql`${String(change.amount)}::numeric`;
      if (change.type === 'set') return Prisma.sql`"priceAdjustment" = ${amount}`;
      const sign = change.type === 'increase' ? Prisma.sql`+` : Prisma.sql`-`;
      return Prisma.sql`"priceAdjustment" = COALESCE(t."priceAdjustment", 0) ${sign} ${amount}`;
    }
  }
}

/**
 * inventory.bulkUpdate: one UPDATE of the requested items the actor may change which, when that
 * is not every one of them, raises SB001 and so ends with nothing changed: a single foreign or
 * unknown id changes nothing. Records come back in the order of the (deduplicated) ids. Sent
 * without the ORM, whose cost per returned row was most of the call. No separate locking pass
 * (it locked, and so wrote, every row before updating it): rows are locked as the UPDATE reaches
 * them, in the planner's order, so an overlapping bulk call can deadlock with it and the victim
 * is run again, as bulkDelete's is.
 */
export async function bulkUpdateInventoryItems(
  context: InventoryContext,
  input: BulkUpdateInput,
): Promise<BulkItemsResult> {
  const { ids, change } = input;
  let rows: InventoryItemRecord[];
  try {
    // The UPDATE writes `context.now` to updatedAt, so the records carry that parameter's text.
    rows = await runAllOrNothing<InventoryItemRecord>(
      context,
      ids,
      Prisma.sql`
      WITH updated AS (
        UPDATE "inventory_items" t
        SET ${assignment(change)}, "updatedAt" = ${context.now}
        WHERE t."id" = ANY(${ids}::text[]) AND ${accessibleItemSql(context.actor, 't')}
        RETURNING ${itemRecordColumns('t', unitPropertyIdSql('t'), { updatedAt: context.now })}
      )
      SELECT * FROM updated WHERE ${everyItemReached('updated', ids.length)}`,
    );
  } catch (error) {
    if (postgresErrorCode(error) === NUMERIC_VALUE_OUT_OF_RANGE) {
      throw new AppError(ErrorCode.BAD_REQUEST, 'The resulting priceAdjustment is out of range', {
        issues: [{ path: ['amount'], message: `Some item would leave ±${INVENTORY_LIMITS.priceAbsMax}`, code: IssueCode.OUT_OF_RANGE, limit: INVENTORY_LIMITS.priceAbsMax }],
      });
    }
    throw error;
  }
  return { items: inKeyOrder(rows, (row) => row.itemId, ids) };
}
