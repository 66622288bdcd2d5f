import type { PropertyUnitRecord, RenameUnitInput } from '@staging/contracts/inventory';
import type { InventoryContext } from './item-records';
import { assertUnitNameFree, lockManageableUnit, toUnitRecord, UNIT_SELECT } from './unit-records';

/** inventory.renameUnit: a new name, unique in the property (its own name in another letter case is fine). */
export function renameInventoryUnit({ db, actor }: InventoryContext, input: RenameUnitInput): Promise<PropertyUnitRecord> {
  return db.$transaction(async (tx) => {
    const unit = await lockManageableUnit(tx, actor, input.propertyUnitId, 'property');
    await assertUnitNameFree(tx, unit.propertyId, input.name, unit.id);
    const renamed = await tx.propertyUnit.update({ where: { id: unit.id }, data: { name: input.name }, select: UNIT_SELECT });
    return toUnitRecord(renamed);
  });
}
