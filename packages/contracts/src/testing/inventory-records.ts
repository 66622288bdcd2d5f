import type { InventoryItemRecord } from '../inventory';

/** An inventory item as the api answers it, with only the fields a test cares about set. */
export function inventoryItemRecord(fields: Partial<InventoryItemRecord>): InventoryItemRecord {
  return {
    itemId: 'i',
    propertyUnitId: 'u1',
    propertyId: 'p',
    unitNumber: '1',
    floor: null,
    status: 'AVAILABLE',
    priceAdjustment: null,
    notes: null,
    createdAt: '',
    updatedAt: '',
    ...fields,
  };
}
