/**
 * How far another party's clock (the provider's, the database's) is from ours, measured from a
 * time it wrote into an answer, and what the provider's measured clock means for the two checks
 * that compare its times with ours: the time span recovery lists around a lost create call, and the
 * webhook-timestamp a callback is accepted with (docs/decisions/provider.md "The provider's clock").
 */

export interface ClockOffset {
  /** Their clock minus ours, in ms: positive when theirs is ahead. */
  offsetMs: number;
  /** Half the width of the interval the true offset lies in (their resolution, the round trip). */
  uncertaintyMs: number;
}

/** A measurement kept for both worker and api: the offset, and when (on our clock) it was taken. */
export interface ClockMeasurement extends ClockOffset {
  measuredAtMs: number;
  /** Which of their times it was read from. */
  source: 'date-header' | 'created-at';
}

/**
 * What the provider may put between a create call and its prediction's `created_at`, and a
 * callback's webhook-timestamp and our clock, with no measurement: Standard Webhooks' 5 minutes.
 */
export const BASE_CLOCK_ALLOWANCE_MS = 5 * 60_000;

/**
 * The largest measured offset the webhook window follows. Past it a callback's timestamp says
 * little about its age (a replay of a callback captured an hour ago would be let in), and a clock
 * that far off is a fault an operator must fix, so such callbacks stay refused and alerted.
 */
export const MAX_FOLLOWED_OFFSET_MS = 60 * 60_000;

/**
 * The offset when their clock read between `theirLowMs` and `theirHighMs` at some instant between
 * our `sentAtMs` and `receivedAtMs`: every offset in [low - received, high - sent] fits.
 */
export function offsetWithin(theirLowMs: number, theirHighMs: number, sentAtMs: number, receivedAtMs: number): ClockOffset {
  const low = theirLowMs - receivedAtMs;
  const high = theirHighMs - sentAtMs;
  return { offsetMs: Math.round((low + high) / 2), uncertaintyMs: Math.ceil((high - low) / 2) };
}

/**
 * From an HTTP `Date` header (RFC 9110 5.6.7 / 6.6.1: the time the message was originated, in
 * whole seconds): their clock read somewhere in the second it names. Null when absent or unreadable.
 */
export function offsetFromDateHeader(date: string | null, sentAtMs: number, receivedAtMs: number): ClockOffset | null {
  if (date === null) return null;
  const secondMs = Date.parse(date);
  if (Number.isNaN(secondMs)) return null;
  return offsetWithin(secondMs, secondMs + 999, sentAtMs, receivedAtMs);
}

/**
 * From a time they stamped while handling the request (a prediction's `created_at`, ISO 8601 with
 * sub-millisecond digits on Replicate): tighter than `Date`, which is cut to the second.
 */
export function offsetFromTimestamp(iso: string, sentAtMs: number, receivedAtMs: number): ClockOffset | null {
  const atMs = Date.parse(iso);
  if (Number.isNaN(atMs)) return null;
  return offsetWithin(atMs, atMs + 1, sentAtMs, receivedAtMs);
}

/** The largest distance between their clock and ours the measurement allows. */
export function worstOffsetMs(offset: ClockOffset): number {
  return Math.abs(offset.offsetMs) + offset.uncertaintyMs;
}

/**
 * How far on either side of the create call's time (ours) recovery lists the provider's
 * predictions: the base 5 minutes, widened by the measured offset. Never narrower: a clock put
 * right since the create call must not hide the purchase, and a wider span only reads more.
 */
export function recoveryAllowanceMs(measured: ClockOffset | null): number {
  return BASE_CLOCK_ALLOWANCE_MS + (measured === null ? 0 : worstOffsetMs(measured));
}

/**
 * The window a callback refused by the plain ±5 minutes is checked against once more: ±5 minutes
 * around the provider's clock as measured (our now + offset), widened by the measurement's
 * uncertainty and the second webhook-timestamp is cut to. Null when there is nothing to follow: no
 * measurement, or one beyond {@link MAX_FOLLOWED_OFFSET_MS}.
 */
export function webhookTimestampWindow(measured: ClockOffset | null): { offsetMs: number; toleranceMs: number } | null {
  if (measured === null || worstOffsetMs(measured) > MAX_FOLLOWED_OFFSET_MS) return null;
  return { offsetMs: measured.offsetMs, toleranceMs: BASE_CLOCK_ALLOWANCE_MS + measured.uncertaintyMs + 1_000 };
}
