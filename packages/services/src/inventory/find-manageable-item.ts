import { AppError, ErrorCode } from '@staging/domain/errors';
import { accessiblePropertyFilter } from '../access/property-access';
import { ITEM_NOT_FOUND, ITEM_SELECT } from './item-records';
import type { InventoryContext } from './item-records';

/** The item with `itemId` if the actor may change it; NOT_FOUND otherwise (either reason). */
export async function findManageableItem({ db, actor }: InventoryContext, itemId: string) {
  const item = await db.inventoryItem.findFirst({
    where: { id: itemId, unit: { property: accessiblePropertyFilter(actor) } },
    select: ITEM_SELECT,
  });
  if (item === null) throw new AppError(ErrorCode.NOT_FOUND, ITEM_NOT_FOUND);
  return item;
}
