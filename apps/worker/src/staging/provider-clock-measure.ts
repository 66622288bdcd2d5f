/**
 * The worker's measurements of the provider's clock (docs/decisions/provider.md "The provider's
 * clock"): the `Date` header of every answer, and the `created_at` of a prediction just bought
 * against the time the create call took. The latest goes to the queue store, where recovery and
 * the api's webhook receiver read it. A store that cannot be written only loses a measurement.
 */
import { offsetFromDateHeader } from '@staging/domain/clock-offset';
import type { ClockMeasurement, ClockOffset } from '@staging/domain/clock-offset';
import type { Logger } from '@staging/platform/logger';
import type { ResponseDateObservation } from '@staging/provider/provider-client';
import type { ProviderClock } from '@staging/services/staging/provider-clock';

export async function recordProviderClock(
  clock: ProviderClock,
  logger: Logger,
  offset: ClockOffset | null,
  source: ClockMeasurement['source'],
  measuredAtMs: number,
): Promise<void> {
  if (offset === null) return;
  try {
    await clock.record({ ...offset, source, measuredAtMs });
  } catch (error) {
    logger.warn({ err: error, source }, 'could not store the measured provider clock offset');
  }
}

/** The provider client's `onResponseDate`: measures from each answer's Date header. */
export function measureFromResponseDates(clock: ProviderClock, logger: Logger): (observation: ResponseDateObservation) => void {
  return ({ date, sentAtMs, receivedAtMs }) =>
    void recordProviderClock(clock, logger, offsetFromDateHeader(date, sentAtMs, receivedAtMs), 'date-header', receivedAtMs);
}
