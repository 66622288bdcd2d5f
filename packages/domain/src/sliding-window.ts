/**
 * The largest number of events inside any window of `windowMs` (an event at t counts in
 * [t, t + windowMs)): what a sliding-window limit of N per window promises to keep ≤ N. Tests and
 * the chaos audit measure the paid-start limiter with it from the provider's creation times.
 */
export function slidingWindowPeak(timesMs: readonly number[], windowMs: number): number {
  const sorted = [...timesMs].sort((a, b) => a - b);
  let peak = 0;
  let first = 0;
  for (const [last, time] of sorted.entries()) {
    // `first` may pass `last` (a window of 0 ms holds nothing): past the end, the window is empty.
    let earliest = sorted[first];
    while (earliest !== undefined && time - earliest >= windowMs) {
      first += 1;
      earliest = sorted[first];
    }
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}
