import type { DeleteUnitInput, DeleteUnitResult } from '@staging/contracts/inventory';
import { AppError, ErrorCode } from '@staging/domain/errors';
import type { InventoryContext } from './item-records';
import { lockManageableUnit, toUnitRecord } from './unit-records';

/**
 * inventory.deleteUnit: removes the unit and its items (the foreign key cascades) only when it
 * holds exactly `expectedItemCount` items (default 0); otherwise CONFLICT with the count it holds.
 * The unit row stays locked from the count to the delete, so an item added meanwhile waits and
 * then finds its unit gone instead of being removed unannounced.
 */
export function deleteInventoryUnit({ db, actor }: InventoryContext, input: DeleteUnitInput): Promise<DeleteUnitResult> {
  return db.$transaction(async (tx) => {
    const unit = await lockManageableUnit(tx, actor, input.propertyUnitId, 'unit');
    const itemCount = await tx.inventoryItem.count({ where: { propertyUnitId: unit.id } });
    const expected = input.expectedItemCount ?? 0;
    if (itemCount !== expected) {
      throw new AppError(ErrorCode.CONFLICT, `The unit holds ${itemCount} inventory items; they would be deleted with it`, {
        issues: [{ path: ['expectedItemCount'], message: `The unit holds ${itemCount} items, not ${expected}` }],
        itemCount,
      });
    }
    await tx.propertyUnit.delete({ where: { id: unit.id } });
    return { ...toUnitRecord(unit), deletedItemCount: itemCount };
  });
}
