import { slidingWindowPeak } from './sliding-window';

describe('slidingWindowPeak', () => {
  it('counts events in half-open windows [t, t + window)', () => {
    expect(slidingWindowPeak([0, 100, 200, 300, 400, 500, 2_999], 3_000)).toBe(7);
    expect(slidingWindowPeak([0, 100, 200, 300, 400, 500, 3_000], 3_000)).toBe(6);
  });

  it('does not depend on the order of the input', () => {
    expect(slidingWindowPeak([5_000, 0, 4_000, 100, 4_500, 4_999], 1_000)).toBe(3);
  });

  it('finds the densest window wherever it begins, not only at the first event', () => {
    expect(slidingWindowPeak([0, 50_000, 55_000, 100_000, 105_000], 60_000)).toBe(4);
  });

  it('is 0 without events', () => {
    expect(slidingWindowPeak([], 1_000)).toBe(0);
  });
});
