import { z } from 'zod';
import type { Locale } from './locale';
import { isOneOf } from './one-of';

/**
 * The seven room classifications an agent assigns to an original photo (docs/system.md 2.2). The values
 * match the database enum `RoomType` verbatim.
 */
export const ROOM_TYPES = ['BEDROOM', 'LIVING_ROOM', 'DINING_ROOM', 'KITCHEN', 'BATHROOM', 'OFFICE', 'TV_ROOM'] as const;
export type RoomType = (typeof ROOM_TYPES)[number];
export const ZRoomType = z.enum(ROOM_TYPES);
export const isRoomType = (value: unknown): value is RoomType => isOneOf(ROOM_TYPES, value);

/**
 * UI labels, one row per room so a translator sees every language of a room side by side.
 * TV_ROOM has its own label in every language: it is a room of its own, not a variant of the
 * living room (docs/system.md 1.2).
 */
export const ROOM_TYPE_LABELS: Readonly<Record<RoomType, Readonly<Record<Locale, string>>>> = {
  BEDROOM: { en: 'Bedroom', es: 'Dormitorio' },
  LIVING_ROOM: { en: 'Living room', es: 'Sala de estar' },
  DINING_ROOM: { en: 'Dining room', es: 'Comedor' },
  KITCHEN: { en: 'Kitchen', es: 'Cocina' },
  BATHROOM: { en: 'Bathroom', es: 'Baño' },
  OFFICE: { en: 'Office', es: 'Oficina' },
  TV_ROOM: { en: 'TV / media room', es: 'Sala de TV / multimedia' },
};

/** The UI label of `roomType` in `locale`. */
export function roomTypeLabel(roomType: RoomType, locale: Locale): string {
  return ROOM_TYPE_LABELS[roomType][locale];
}
