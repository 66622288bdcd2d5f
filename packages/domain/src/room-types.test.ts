import { ROOM_TYPES, ROOM_TYPE_LABELS, ZRoomType, isRoomType, roomTypeLabel } from './room-types';

describe('room types', () => {
  it('are the seven types of docs/system.md 2.2', () => {
    expect(ROOM_TYPES).toEqual(['BEDROOM', 'LIVING_ROOM', 'DINING_ROOM', 'KITCHEN', 'BATHROOM', 'OFFICE', 'TV_ROOM']);
  });

  it('have distinct labels per locale and TV_ROOM is labelled as a TV/media room, not a living room', () => {
    for (const locale of ['en', 'es'] as const) {
      const labels = ROOM_TYPES.map((t) => ROOM_TYPE_LABELS[t][locale]);
      expect(new Set(labels).size).toBe(ROOM_TYPES.length);
    }
    expect(roomTypeLabel('TV_ROOM', 'en')).toBe('TV / media room');
    expect(roomTypeLabel('TV_ROOM', 'es')).toBe('Sala de TV / multimedia');
    expect(roomTypeLabel('TV_ROOM', 'en')).not.toMatch(/living/i);
    expect(roomTypeLabel('TV_ROOM', 'es')).not.toBe(roomTypeLabel('LIVING_ROOM', 'es'));
  });

  it('validates exact values only', () => {
    expect(isRoomType('TV_ROOM')).toBe(true);
    expect(isRoomType('tv_room')).toBe(false);
    expect(isRoomType('living_room')).toBe(false);
    expect(ZRoomType.safeParse('OFFICE').success).toBe(true);
    expect(ZRoomType.safeParse('GARAGE').success).toBe(false);
  });
});
