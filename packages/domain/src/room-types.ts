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
export function isRoomType(value: unknown): value is RoomType {
  return isOneOf(ROOM_TYPES, value);
}

/**
 * UI labels per locale. TV_ROOM has its own label in every language: it is a room of its own,
 * not a variant of the living room (docs/system.md 1.2).
 */
export const ROOM_TYPE_LABELS: Readonly<Record<Locale, Readonly<Record<RoomType, string>>>> = {
  en: {
    BEDROOM: 'Bedroom',
    LIVING_ROOM: 'Living room',
    DINING_ROOM: 'Dining room',
    KITCHEN: 'Kitchen',
    BATHROOM: 'Bathroom',
    OFFICE: 'Office',
    TV_ROOM: 'TV / media room',
  },
  es: {
    BEDROOM: 'Dormitorio',
    LIVING_ROOM: 'Sala de estar',
    DINING_ROOM: 'Comedor',
    KITCHEN: 'Cocina',
    BATHROOM: 'Baño',
    OFFICE: 'Oficina',
    TV_ROOM: 'Sala de TV / multimedia',
  },
};

/** The UI label of `roomType` in `locale`. */
export function roomTypeLabel(roomType: RoomType, locale: Locale): string {
  return ROOM_TYPE_LABELS[locale][roomType];
}
