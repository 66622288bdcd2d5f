import { z } from 'zod';
import { isOneOf } from './one-of';

/**
 * The seven room classifications an agent assigns to an original photo (docs/system.md 2.2). The values
 * match the database enum `RoomType` verbatim. Their UI names live in the web's message catalogues
 * (apps/web/messages, `roomTypes`), with the rest of its text.
 */
export const ROOM_TYPES = ['BEDROOM', 'LIVING_ROOM', 'DINING_ROOM', 'KITCHEN', 'BATHROOM', 'OFFICE', 'TV_ROOM'] as const;
export type RoomType = (typeof ROOM_TYPES)[number];
export const ZRoomType = z.enum(ROOM_TYPES);
export function isRoomType(value: unknown): value is RoomType {
  return isOneOf(ROOM_TYPES, value);
}
