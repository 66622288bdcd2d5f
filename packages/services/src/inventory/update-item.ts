import type { InventoryItemRecord, UpdateItemInput } from '@staging/contracts/inventory';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { unitNumberConflict } from './create-item';
import { findManageableItem } from './find-manageable-item';
import { ITEM_NOT_FOUND, ITEM_SELECT, toItemRecord } from './item-records';
import type { InventoryContext } from './item-records';
import { isRecordNotFound, postgresErrorCode, UNIQUE_VIOLATION } from './postgres-errors';

/**
 * inventory.update: changes only the fields present in the input (null clears a nullable field).
 * An input with no field to change returns the item untouched, updatedAt included.
 */
export async function updateInventoryItem(
  context: InventoryContext,
  input: UpdateItemInput,
): Promise<InventoryItemRecord> {
  const current = await findManageableItem(context, input.itemId);
  const { itemId: _itemId, ...fields } = input;
  const data = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (Object.keys(data).length === 0) return toItemRecord(current);
  try {
    const item = await context.db.inventoryItem.update({
      where: { id: current.id },
      data: { ...data, updatedAt: context.now },
      select: ITEM_SELECT,
    });
    return toItemRecord(item);
  } catch (error) {
    if (postgresErrorCode(error) === UNIQUE_VIOLATION) throw unitNumberConflict(['unitNumber']);
    // Deleted by someone else between the check and the update.
    if (isRecordNotFound(error)) {
      throw new AppError(ErrorCode.NOT_FOUND, ITEM_NOT_FOUND);
    }
    throw error;
  }
}
