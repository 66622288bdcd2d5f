'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { InventoryUnitRecord } from '@staging/contracts/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useInventoryCache } from './inventory-cache';
import { useUnitNameErrors } from './unit-name-field';

/** Renaming one unit inline (inventory.renameUnit): the new name while the form is open, and its save. */
export function useUnitRename(unit: InventoryUnitRecord, propertyId: string) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const [draft, setDraft] = useState<string | null>(null);
  // Rename swaps its button for the form: focus moves into the name field, and back afterwards.
  const renameButton = useFocusTarget<HTMLButtonElement>();
  const renameInput = useFocusTarget<HTMLInputElement>();
  const rename = useMutation(
    trpc.inventory.renameUnit.mutationOptions({
      onSuccess: (renamed) => {
        cache.renameUnit(renamed);
        setDraft(null);
        renameButton.moveFocus();
      },
    }),
  );
  const errors = useUnitNameErrors(rename.error);

  return {
    /** The name being typed; null while the unit's buttons show instead of the form. */
    draft,
    setDraft,
    buttonRef: renameButton.ref,
    inputRef: renameInput.ref,
    start: () => {
      rename.reset();
      setDraft(unit.name);
      renameInput.moveFocus();
    },
    save: (event: FormEvent) => {
      event.preventDefault();
      if (draft !== null) rename.mutate({ propertyUnitId: unit.propertyUnitId, name: draft });
    },
    cancel: () => {
      setDraft(null);
      renameButton.moveFocus();
    },
    isPending: rename.isPending,
    errors,
  };
}

export type UnitRename = ReturnType<typeof useUnitRename>;
