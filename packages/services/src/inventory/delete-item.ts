import type { DeleteItemInput, InventoryItemRecord } from '@staging/contracts/inventory';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { findManageableItem } from './find-manageable-item';
import { ITEM_NOT_FOUND, toItemRecord } from './item-records';
import type { InventoryContext } from './item-records';

/** inventory.delete: removes the item and returns it as it was (clients can offer undo). */
export async function deleteInventoryItem(
  context: InventoryContext,
  input: DeleteItemInput,
): Promise<InventoryItemRecord> {
  const item = await findManageableItem(context, input.itemId);
  const { count } = await context.db.inventoryItem.deleteMany({ where: { id: item.id } });
  // A concurrent delete won the race: for this caller the item no longer exists.
  if (count === 0) throw new AppError(ErrorCode.NOT_FOUND, ITEM_NOT_FOUND);
  return toItemRecord(item);
}
