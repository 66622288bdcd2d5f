import type { CreateItemInput, InventoryItemRecord } from '@staging/contracts/inventory';
import { AppError, ErrorCode, IssueCode } from '@staging/domain/errors';
import { accessiblePropertyFilter } from '../access/property-access';
import { ITEM_SELECT, toItemRecord, UNIT_NOT_FOUND } from './item-records';
import type { InventoryContext } from './item-records';
import { FOREIGN_KEY_VIOLATION, postgresErrorCode, UNIQUE_VIOLATION } from './postgres-errors';

export function unitNumberConflict(path: (string | number)[]): AppError {
  return new AppError(ErrorCode.CONFLICT, 'unitNumber already exists in this property unit', {
    issues: [{ path, message: 'Already used in this property unit', code: IssueCode.ALREADY_USED }],
  });
}

/** inventory.create: one item in a unit of a property the actor manages. */
export async function createInventoryItem(
  { db, actor, now }: InventoryContext,
  input: CreateItemInput,
): Promise<InventoryItemRecord> {
  const unit = await db.propertyUnit.findFirst({
    where: { id: input.propertyUnitId, property: accessiblePropertyFilter(actor) },
    select: { id: true },
  });
  if (unit === null) throw new AppError(ErrorCode.NOT_FOUND, UNIT_NOT_FOUND);
  try {
    const item = await db.inventoryItem.create({
      data: {
        propertyUnitId: unit.id,
        unitNumber: input.unitNumber,
        floor: input.floor ?? null,
        ...(input.status === undefined ? {} : { status: input.status }),
        priceAdjustment: input.priceAdjustment ?? null,
        notes: input.notes ?? null,
        createdAt: now,
        updatedAt: now,
      },
      select: ITEM_SELECT,
    });
    return toItemRecord(item);
  } catch (error) {
    const code = postgresErrorCode(error);
    if (code === UNIQUE_VIOLATION) throw unitNumberConflict(['unitNumber']);
    // The unit was deleted between the check and the insert.
    if (code === FOREIGN_KEY_VIOLATION) throw new AppError(ErrorCode.NOT_FOUND, UNIT_NOT_FOUND);
    throw error;
  }
}
