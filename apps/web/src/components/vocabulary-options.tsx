'use client';

import { useLocale } from 'next-intl';
import { INVENTORY_STATUSES, inventoryStatusLabel } from '@staging/domain/inventory';
import { ROOM_TYPES } from '@staging/domain/room-types';
import { useRoomTypeLabel } from '@/client/use-room-type-label';

/** One `<option>` per value of a closed vocabulary, labelled in the UI language. */
function VocabularyOptions<T extends string>(props: { values: readonly T[]; label: (value: T) => string | null }) {
  return props.values.map((value) => (
    <option key={value} value={value}>
      {props.label(value) ?? value}
    </option>
  ));
}

export function InventoryStatusOptions() {
  const locale = useLocale();
  return <VocabularyOptions values={INVENTORY_STATUSES} label={(status) => inventoryStatusLabel(status, locale)} />;
}

export function RoomTypeOptions() {
  return <VocabularyOptions values={ROOM_TYPES} label={useRoomTypeLabel()} />;
}
