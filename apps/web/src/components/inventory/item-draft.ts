'use client';

import type { InventoryItemRecord } from '@staging/contracts/inventory';
import type { InventoryStatus } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { parseNumberField } from './number-input';

/** An item's fields as its form holds them: numbers as typed, so an unparsable one can be named. */
export interface ItemDraft {
  unitNumber: string;
  floor: string;
  status: InventoryStatus;
  priceAdjustment: string;
  notes: string;
}

const ITEM_FIELDS: readonly (keyof ItemDraft)[] = ['unitNumber', 'floor', 'status', 'priceAdjustment', 'notes'];

export const EMPTY_ITEM_DRAFT: ItemDraft = { unitNumber: '', floor: '', status: 'AVAILABLE', priceAdjustment: '', notes: '' };

export function draftOf(item: InventoryItemRecord): ItemDraft {
  return {
    unitNumber: item.unitNumber,
    floor: item.floor === null ? '' : String(item.floor),
    status: item.status,
    priceAdjustment: item.priceAdjustment === null ? '' : String(item.priceAdjustment),
    notes: item.notes ?? '',
  };
}

/** An item's fields as inventory.create and inventory.update take them. */
interface ItemFields {
  unitNumber: string;
  floor: number | null;
  status: InventoryStatus;
  priceAdjustment: number | null;
  notes: string | null;
}

/**
 * The draft as inventory.create and inventory.update take an item's fields (blank numbers and
 * notes cleared), or the first number field that does not read as a number.
 */
export function itemFieldsOf(draft: ItemDraft): { fields: ItemFields } | { notANumber: 'floor' | 'priceAdjustment' } {
  const floor = parseNumberField(draft.floor);
  if (floor === undefined) return { notANumber: 'floor' };
  const priceAdjustment = parseNumberField(draft.priceAdjustment);
  if (priceAdjustment === undefined) return { notANumber: 'priceAdjustment' };
  return {
    fields: {
      unitNumber: draft.unitNumber,
      floor,
      status: draft.status,
      priceAdjustment,
      notes: draft.notes.trim() === '' ? null : draft.notes,
    },
  };
}

/**
 * What a failed inventory.create/update says, split by where it shows: under the field it
 * names, or for the whole form when it names none of them.
 */
export function useItemSaveErrors(error: unknown) {
  const { errorSentence, fieldError } = useDashboardText('inventory');
  const field = (name: string) => (error === undefined ? undefined : fieldError(error, name));
  const form = error !== undefined && ITEM_FIELDS.every((name) => field(name) === undefined) ? errorSentence(error) : undefined;
  return { field, form };
}
