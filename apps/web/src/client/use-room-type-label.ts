'use client';

import { useTranslations } from 'next-intl';
import { isRoomType } from '@staging/domain/room-types';

/**
 * A photo's room in the UI language (messages/<locale>.json `roomTypes`), or null for a value that
 * is not one of the seven room types (none recorded, or an old row).
 */
export function useRoomTypeLabel(): (roomType: string | null) => string | null {
  const t = useTranslations('roomTypes');
  return (roomType) => (isRoomType(roomType) ? t(roomType) : null);
}
