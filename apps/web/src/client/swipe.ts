/** Shortest horizontal travel, in CSS pixels, that counts as a swipe rather than a tap. */
export const SWIPE_MIN_PX = 50;

/**
 * The step a finished pointer drag asks for: +1 (next) for a swipe to the left, -1 (previous) for
 * one to the right, 0 for a tap, a short drag or a mostly vertical one (scrolling the page).
 */
export function swipeStep(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}
