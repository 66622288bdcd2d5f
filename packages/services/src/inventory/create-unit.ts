import type { CreateUnitInput, PropertyUnitRecord } from '@staging/contracts/inventory';
import type { InventoryContext } from './item-records';
import { assertUnitNameFree, lockManageableProperty, toUnitRecord, UNIT_SELECT } from './unit-records';

/** inventory.createUnit: an empty unit in a property the actor manages; names are unique per property. */
export function createInventoryUnit({ db, actor, now }: InventoryContext, input: CreateUnitInput): Promise<PropertyUnitRecord> {
  return db.$transaction(async (tx) => {
    await lockManageableProperty(tx, actor, input.propertyId);
    await assertUnitNameFree(tx, input.propertyId, input.name);
    const unit = await tx.propertyUnit.create({
      data: { propertyId: input.propertyId, name: input.name, createdAt: now },
      select: UNIT_SELECT,
    });
    return toUnitRecord(unit);
  });
}
