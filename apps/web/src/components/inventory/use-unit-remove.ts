'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { DeleteUnitResult, InventoryUnitRecord } from '@staging/contracts/inventory';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';
import { useInventoryCache } from './inventory-cache';

/**
 * Removing one unit with its items (inventory.deleteUnit), after a confirmation that says how
 * many items go; the delete sends that count, so items added meanwhile are never removed unseen.
 */
export function useUnitRemove(unit: InventoryUnitRecord, propertyId: string, onRemoved: (result: DeleteUnitResult) => void) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const { t, errorSentence } = useDashboardText('inventory');
  // The item count the confirmation showed and the delete sends; null while no dialog is open.
  const [confirming, setConfirming] = useState<number | null>(null);
  const remove = useMutation(
    trpc.inventory.deleteUnit.mutationOptions({
      onSuccess: (result) => {
        cache.removeUnit(result.propertyUnitId);
        onRemoved(result);
      },
      onError: (error) => {
        // Items were added or removed since the page loaded: the dialog now states the real count,
        // the next confirm sends it, and the table reloads to show those items.
        const { code, itemCount } = describeError(error);
        if (code === 'CONFLICT' && itemCount !== undefined) {
          setConfirming(itemCount);
          void cache.refetch();
        }
      },
    }),
  );
  const error = (() => {
    if (!remove.isError) return undefined;
    const { code, itemCount } = describeError(remove.error);
    return code === 'CONFLICT' && itemCount !== undefined ? t('removeUnitChanged', { count: itemCount }) : errorSentence(remove.error);
  })();

  return {
    confirming,
    ask: () => {
      remove.reset();
      setConfirming(unit.items.length);
    },
    cancel: () => setConfirming(null),
    confirm: () => confirming !== null && remove.mutate({ propertyUnitId: unit.propertyUnitId, expectedItemCount: confirming }),
    isPending: remove.isPending,
    error,
  };
}
