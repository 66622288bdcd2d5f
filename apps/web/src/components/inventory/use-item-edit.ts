'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useInventoryCache } from './inventory-cache';
import { draftOf, itemFieldsOf, useItemSaveErrors, type ItemDraft } from './item-draft';

/** Editing one item inline: its draft while the row is a form, and the save with inventory.update. */
export function useItemEdit(item: InventoryItemRecord, propertyId: string) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const { t } = useDashboardText('inventory');
  const [draft, setDraft] = useState<ItemDraft | null>(null);
  const [localError, setLocalError] = useState<string | undefined>();
  // Save and Cancel leave with the edit form; focus goes back to the row's Edit button.
  const editButton = useFocusTarget<HTMLButtonElement>();
  const update = useMutation(
    trpc.inventory.update.mutationOptions({
      onSuccess: cache.afterSave(() => {
        setDraft(null);
        editButton.moveFocus();
      }),
    }),
  );
  const errors = useItemSaveErrors(update.isError ? update.error : undefined);

  return {
    draft,
    setDraft,
    editButtonRef: editButton.ref,
    start: () => {
      update.reset();
      setLocalError(undefined);
      setDraft(draftOf(item));
    },
    cancel: () => {
      setDraft(null);
      editButton.moveFocus();
    },
    save: () => {
      if (draft === null) return;
      const parsed = itemFieldsOf(draft);
      if ('notANumber' in parsed) {
        setLocalError(parsed.notANumber === 'floor' ? t('floorNotNumber') : t('priceNotNumber'));
        return;
      }
      setLocalError(undefined);
      update.mutate({ itemId: item.itemId, ...parsed.fields });
    },
    isPending: update.isPending,
    fieldError: errors.field,
    rowError: localError ?? errors.form,
  };
}

export type ItemEdit = ReturnType<typeof useItemEdit>;
