/**
 * The largest number of events inside any window of `windowMs` (an event at t counts in
 * [t, t + windowMs)): what a sliding-window limit of N per window promises to keep ≤ N. Tests and
 * the chaos audit measure the paid-start limiter with it from the provider's creation times.
 */
export function slidingWindowPeak(timesMs: readonly number[], windowMs: number): number {
  const sorted = [...timesMs].sort((a, b) => a - b);
  let peak = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last += 1) {
    while (sorted[last]! - sorted[first]! >= windowMs) first += 1;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}
