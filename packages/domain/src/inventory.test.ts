import { describe, expect, test } from '@jest/globals';
import { INVENTORY_STATUSES, inventoryStatusLabel, parseInventoryStatus } from './inventory';

describe('inventory status labels', () => {
  test('labels every status in every locale and reads back codes and labels in any case', () => {
    expect(inventoryStatusLabel('AVAILABLE', 'en')).toBe('Available');
    expect(inventoryStatusLabel('SOLD', 'es')).toBe('Vendida');
    for (const status of INVENTORY_STATUSES) {
      expect(parseInventoryStatus(status.toLowerCase())).toBe(status);
      expect(parseInventoryStatus(` ${inventoryStatusLabel(status, 'en').toUpperCase()} `)).toBe(status);
      expect(parseInventoryStatus(inventoryStatusLabel(status, 'es'))).toBe(status);
    }
    expect(parseInventoryStatus('BROKEN')).toBeUndefined();
    expect(parseInventoryStatus('')).toBeUndefined();
  });
});
