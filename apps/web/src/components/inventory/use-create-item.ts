'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useInventoryCache } from './inventory-cache';
import { EMPTY_ITEM_DRAFT, itemFieldsOf, useItemSaveErrors, type ItemDraft } from './item-draft';

/** A new item of one unit: the form's values, their check, inventory.create, and what was added. */
export function useCreateItem(propertyId: string, unitId: string) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const { t } = useDashboardText('inventory');
  const [form, setForm] = useState<ItemDraft>(EMPTY_ITEM_DRAFT);
  const [localError, setLocalError] = useState<{ field: string; message: string } | undefined>();
  const [added, setAdded] = useState<string | undefined>();
  // The confirmation takes focus, so a keyboard user hears what was added and Shift+Tab is back
  // at the form for the next item.
  const addedFocus = useFocusTarget<HTMLParagraphElement>();
  const create = useMutation(
    trpc.inventory.create.mutationOptions({
      onSuccess: cache.afterSave((record) => {
        setForm(EMPTY_ITEM_DRAFT);
        setAdded(record.unitNumber);
        addedFocus.moveFocus();
      }),
    }),
  );
  const errors = useItemSaveErrors(create.isError ? create.error : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = itemFieldsOf(form);
    if ('notANumber' in parsed) return setLocalError({ field: parsed.notANumber, message: t('mustBeNumber') });
    setLocalError(undefined);
    setAdded(undefined);
    create.mutate({ propertyUnitId: unitId, ...parsed.fields });
  };

  return {
    form,
    edit: (change: Partial<ItemDraft>) => setForm({ ...form, ...change }),
    submit,
    errorOf: (field: string): string | undefined => (localError?.field === field ? localError.message : errors.field(field)),
    generalError: errors.form,
    isPending: create.isPending,
    added,
    addedRef: addedFocus.ref,
  };
}
