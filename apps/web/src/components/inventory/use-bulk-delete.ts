'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/client/trpc';
import { useInventoryCache } from './inventory-cache';

/** Deleting every selected item (inventory.bulkDelete): asked about first, then removed from the cached inventory. */
export function useBulkDelete(propertyId: string, onDeleted: (count: number) => void) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const [confirming, setConfirming] = useState(false);
  const bulkDelete = useMutation(
    trpc.inventory.bulkDelete.mutationOptions({
      onSuccess: (result) => {
        cache.remove(result.itemIds);
        setConfirming(false);
        onDeleted(result.count);
      },
    }),
  );
  return {
    /** Whether the confirmation is open. */
    confirming,
    ask: () => {
      bulkDelete.reset();
      setConfirming(true);
    },
    cancel: () => setConfirming(false),
    confirm: (ids: string[]) => bulkDelete.mutate({ ids }),
    /** Forgets a failed delete, so its message goes while another action runs. */
    reset: () => bulkDelete.reset(),
    isPending: bulkDelete.isPending,
    error: bulkDelete.isError ? bulkDelete.error : undefined,
  };
}
