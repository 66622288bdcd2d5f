/**
 * `pnpm doctor`'s clock checks: how far the provider's clock (the `Date` header of the model
 * schema GET, RFC 9110 6.6.1) and the database's (`select now()`) are from this machine's. The
 * worker compares our clock with the provider's timestamps (recovery's list span, the api's
 * webhook window), so a large offset is worth knowing before it refuses callbacks
 * (docs/decisions/provider.md "The provider's clock").
 */
import pg from 'pg';
import { offsetFromDateHeader, offsetWithin } from '@staging/domain/clock-offset';
import type { ClockOffset } from '@staging/domain/clock-offset';
import type { ResponseDateObservation } from '@staging/provider/provider-client';
import type { Finding } from './doctor-checks';

/**
 * Warn once the offset is surely past a minute: hosts that keep time (NTP) are off by
 * milliseconds, a Date header measures to about a second, and a minute still leaves four of the
 * five minutes the provider's webhook-timestamp is accepted within before measuring matters.
 */
export const CLOCK_SKEW_WARN_MS = 60_000;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One finding for the offset of `whose` clock, measured from `how`. */
export function clockFinding(scope: string, whose: string, how: string, offset: ClockOffset): Finding {
  const direction = offset.offsetMs >= 0 ? 'ahead of' : 'behind';
  const detail = `${whose} clock is ${seconds(Math.abs(offset.offsetMs))} ${direction} this machine's (±${seconds(offset.uncertaintyMs)}, ${how})`;
  const surelyOver = Math.abs(offset.offsetMs) - offset.uncertaintyMs > CLOCK_SKEW_WARN_MS;
  return {
    scope,
    check: 'clock skew',
    status: surelyOver ? 'warn' : 'pass',
    detail: surelyOver ? `${detail}; over ${seconds(CLOCK_SKEW_WARN_MS)}: run NTP on the hosts or ask the provider` : detail,
  };
}

/** From the Date header the provider's answer carried (null when the request got no answer). */
export function providerClockFinding(seen: ResponseDateObservation | undefined): Finding {
  const offset = seen === undefined ? null : offsetFromDateHeader(seen.date, seen.sentAtMs, seen.receivedAtMs);
  if (offset === null) {
    return { scope: 'worker', check: 'clock skew', status: 'warn', detail: 'the provider answered with no readable Date header: its clock was not measured' };
  }
  return clockFinding('worker', "the provider's", 'Date header of the model schema GET', offset);
}

/** `select now()` against the time the query took; now() is microseconds, so the round trip is the uncertainty. */
export async function checkDatabaseClock(databaseUrl: string): Promise<Finding> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const sentAtMs = Date.now();
    const result = await client.query<{ now: Date }>('select now() as now');
    const receivedAtMs = Date.now();
    const row = result.rows[0];
    if (row === undefined) throw new Error('select now() returned no row');
    const dbMs = row.now.getTime();
    // pg gives milliseconds: the database's clock read somewhere in that millisecond.
    return clockFinding('shared', "the database's", 'select now()', offsetWithin(dbMs, dbMs + 1, sentAtMs, receivedAtMs));
  } catch (error) {
    return { scope: 'shared', check: 'clock skew', status: 'warn', detail: `the database's clock was not measured: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}
