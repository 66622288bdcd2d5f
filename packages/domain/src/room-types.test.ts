import { ROOM_TYPES, ZRoomType, isRoomType } from './room-types';

describe('room types', () => {
  it('are the seven types of docs/system.md 2.2', () => {
    expect(ROOM_TYPES).toEqual(['BEDROOM', 'LIVING_ROOM', 'DINING_ROOM', 'KITCHEN', 'BATHROOM', 'OFFICE', 'TV_ROOM']);
  });

  it('validates exact values only', () => {
    expect(isRoomType('TV_ROOM')).toBe(true);
    expect(isRoomType('tv_room')).toBe(false);
    expect(isRoomType('living_room')).toBe(false);
    expect(ZRoomType.safeParse('OFFICE').success).toBe(true);
    expect(ZRoomType.safeParse('GARAGE').success).toBe(false);
  });
});
