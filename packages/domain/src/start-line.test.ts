import { fairShareParty, placeInLine, startIntervalMs } from './start-line';

describe('startIntervalMs', () => {
  it('spaces starts evenly over the window, rounding up so the limit is never passed', () => {
    expect(startIntervalMs(6, 60_000)).toBe(10_000);
    expect(startIntervalMs(7, 60_000)).toBe(8_572);
    expect(startIntervalMs(120, 60_000)).toBe(500);
  });

  it('treats a limit below one as one start per window', () => {
    expect(startIntervalMs(0, 60_000)).toBe(60_000);
  });
});

describe('placeInLine', () => {
  it('puts the head at position 1 on the next slot and each later job one interval after', () => {
    const nextSlotAtMs = Date.parse('2026-12-05T10:00:00.000Z');
    expect(placeInLine({ rank: 0, nextSlotAtMs, intervalMs: 10_000 })).toEqual({ position: 1, expectedStartAt: new Date('2026-12-05T10:00:00.000Z') });
    expect(placeInLine({ rank: 11, nextSlotAtMs, intervalMs: 10_000 })).toEqual({ position: 12, expectedStartAt: new Date('2026-12-05T10:01:50.000Z') });
  });
});

describe('fairShareParty', () => {
  it('counts the submitting agent, and jobs nobody asked for as one party', () => {
    expect(fairShareParty('user-1')).toBe('user-1');
    expect(fairShareParty(null)).toBe('unattributed');
  });
});
