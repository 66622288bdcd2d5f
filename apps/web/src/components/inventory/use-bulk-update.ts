'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { BulkUpdateAction, InventoryStatus, PriceChangeType } from '@staging/domain/inventory';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useInventoryCache } from './inventory-cache';
import { parseNumberField } from './number-input';

/** The change the bulk form composes: which action, and the value each action would send (numbers as typed). */
export interface BulkChange {
  action: BulkUpdateAction;
  status: InventoryStatus;
  floor: string;
  priceType: PriceChangeType;
  amount: string;
}

const FIRST_CHANGE: BulkChange = { action: 'status', status: 'AVAILABLE', floor: '', priceType: 'increase', amount: '' };

/** One change to every selected item (inventory.bulkUpdate), checked before it is sent. */
export function useBulkUpdate(propertyId: string, onUpdated: (count: number) => void) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const { t, errorSentence } = useDashboardText('inventory');
  const [change, setChange] = useState<BulkChange>(FIRST_CHANGE);
  const [localError, setLocalError] = useState<string | undefined>();
  const bulkUpdate = useMutation(
    trpc.inventory.bulkUpdate.mutationOptions({
      onSuccess: (result) => {
        cache.upsert(result.items);
        onUpdated(result.items.length);
      },
    }),
  );

  const apply = (ids: string[]) => {
    setLocalError(undefined);
    const { action } = change;
    if (action === 'status') return bulkUpdate.mutate({ ids, action, status: change.status });
    if (action === 'floor') {
      const value = parseNumberField(change.floor);
      if (value === undefined) return setLocalError(t('bulkFloorInvalid'));
      return bulkUpdate.mutate({ ids, action, floor: value });
    }
    const value = parseNumberField(change.amount);
    if (value === undefined || value === null) return setLocalError(t('enterAmount'));
    return bulkUpdate.mutate({ ids, action, type: change.priceType, amount: value });
  };

  return {
    change,
    edit: (next: Partial<BulkChange>) => setChange({ ...change, ...next }),
    apply,
    isPending: bulkUpdate.isPending,
    error: localError ?? (bulkUpdate.isError ? errorSentence(bulkUpdate.error) : undefined),
  };
}

export type BulkUpdate = ReturnType<typeof useBulkUpdate>;
