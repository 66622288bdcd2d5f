'use client';

import { useLocale } from 'next-intl';
import { INVENTORY_STATUSES, inventoryStatusLabel } from '@staging/domain/inventory';
import type { Locale } from '@staging/domain/locale';
import { ROOM_TYPES, roomTypeLabel } from '@staging/domain/room-types';

/** One `<option>` per value of a closed vocabulary, labelled in the UI language. */
function VocabularyOptions<T extends string>(props: { values: readonly T[]; label: (value: T, locale: Locale) => string }) {
  const locale = useLocale();
  return props.values.map((value) => (
    <option key={value} value={value}>
      {props.label(value, locale)}
    </option>
  ));
}

export const InventoryStatusOptions = () => <VocabularyOptions values={INVENTORY_STATUSES} label={inventoryStatusLabel} />;
export const RoomTypeOptions = () => <VocabularyOptions values={ROOM_TYPES} label={roomTypeLabel} />;
