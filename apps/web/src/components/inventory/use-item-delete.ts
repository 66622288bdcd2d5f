'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { useTRPC } from '@/client/trpc';
import { useInventoryCache } from './inventory-cache';

/** Deleting one item: asked about first, then removed from the cached inventory. */
export function useItemDelete(propertyId: string, onDeleted: (itemId: string) => void) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const [deleting, setDeleting] = useState<InventoryItemRecord | undefined>();
  const remove = useMutation(
    trpc.inventory.delete.mutationOptions({
      onSuccess: (_result, input) => {
        cache.remove([input.itemId]);
        onDeleted(input.itemId);
        setDeleting(undefined);
      },
    }),
  );
  return {
    /** The item the confirmation asks about, while it is open. */
    deleting,
    ask: (item: InventoryItemRecord) => {
      remove.reset();
      setDeleting(item);
    },
    cancel: () => setDeleting(undefined),
    confirm: () => deleting !== undefined && remove.mutate({ itemId: deleting.itemId }),
    isPending: remove.isPending,
    error: remove.isError ? remove.error : undefined,
  };
}

export type ItemDelete = ReturnType<typeof useItemDelete>;
