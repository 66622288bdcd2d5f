import { SWIPE_MIN_PX, swipeStep } from './swipe';

describe('swipeStep', () => {
  it('goes to the next photo on a swipe to the left and back on one to the right', () => {
    expect(swipeStep(-120, 10)).toBe(1);
    expect(swipeStep(120, -10)).toBe(-1);
  });

  it('ignores taps, short drags and mostly vertical ones', () => {
    expect(swipeStep(0, 0)).toBe(0);
    expect(swipeStep(SWIPE_MIN_PX - 1, 0)).toBe(0);
    expect(swipeStep(-80, 70)).toBe(0);
  });
});
