'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/client/trpc';
import type { GetUnitsResult, InventoryItemRecord, PropertyUnitRecord } from '@staging/contracts/inventory';

function byUnitNumber(a: InventoryItemRecord, b: InventoryItemRecord): number {
  // Code-point order, as getUnits sorts (COLLATE "C"), so a created row lands where a reload puts it.
  if (a.unitNumber !== b.unitNumber) return a.unitNumber < b.unitNumber ? -1 : 1;
  return a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0;
}

/**
 * Writes mutation results into the cached getUnits answer instead of refetching it: getUnits is
 * limited to 20 calls a minute per user, and an agent editing a table would spend that quickly.
 */
export function useInventoryCache(propertyId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const key = trpc.inventory.getUnits.queryKey({ propertyId });

  const update = (change: (result: GetUnitsResult) => GetUnitsResult) =>
    queryClient.setQueryData(key, (old: GetUnitsResult | undefined) => (old === undefined ? old : change(old)));

  const upsert = (items: readonly InventoryItemRecord[]) => {
    const byId = new Map(items.map((item) => [item.itemId, item]));
    update((old) => ({
      ...old,
      units: old.units.map((unit) => {
        const incoming = items.filter((item) => item.propertyUnitId === unit.propertyUnitId);
        const kept = unit.items.filter((item) => !byId.has(item.itemId));
        return incoming.length === 0 && kept.length === unit.items.length
          ? unit
          : { ...unit, items: [...kept, ...incoming].sort(byUnitNumber) };
      }),
    }));
  };

  return {
    upsert,
    /** onSuccess of inventory.create / inventory.update: the saved item goes into the table, then `next` runs. */
    afterSave(next: (record: InventoryItemRecord) => void) {
      return (record: InventoryItemRecord) => {
        upsert([record]);
        next(record);
      };
    },
    remove(itemIds: readonly string[]) {
      const doomed = new Set(itemIds);
      update((old) => ({
        ...old,
        units: old.units.map((unit) => ({ ...unit, items: unit.items.filter((item) => !doomed.has(item.itemId)) })),
      }));
    },
    /** onSuccess of inventory.createUnit: units are listed in creation order, so the new one goes last. */
    addUnit(unit: PropertyUnitRecord) {
      update((old) => ({ ...old, units: [...old.units, { ...unit, items: [] }] }));
    },
    renameUnit(unit: PropertyUnitRecord) {
      update((old) => ({
        ...old,
        units: old.units.map((cached) => (cached.propertyUnitId === unit.propertyUnitId ? { ...cached, name: unit.name } : cached)),
      }));
    },
    removeUnit(propertyUnitId: string) {
      update((old) => ({ ...old, units: old.units.filter((unit) => unit.propertyUnitId !== propertyUnitId) }));
    },
    refetch() {
      return queryClient.invalidateQueries({ queryKey: key });
    },
  };
}
