/**
 * A provider whose clock is off the machine's, for tests of what the worker and the api do with a
 * skewed provider (docs/decisions/provider.md "The provider's clock"). The simulator keeps its own
 * bookkeeping on the machine's clock; everything it *shows* of time is on the provider's: the
 * `Date` header of every answer, a prediction's created_at/started_at/completed_at/deadline, the
 * created_after/created_before filters it is asked for, and the webhook-timestamp it signs.
 */
import type { ServerResponse } from 'node:http';

export interface ProviderClock {
  /** The provider's clock minus the machine's, in ms; 0 by default. */
  offsetMs: number;
  /** Now on the provider's clock. */
  now(): Date;
  /** A time the provider was given (a list filter), on the machine's clock. */
  fromProvider(providerMs: number): number;
}

export function createProviderClock(offsetMs = 0): ProviderClock {
  if (!Number.isFinite(offsetMs)) throw new Error('clockOffsetMs must be a finite number');
  return {
    offsetMs,
    now: () => new Date(Date.now() + offsetMs),
    fromProvider: (providerMs) => providerMs - offsetMs,
  };
}

/** Node writes the machine's `Date` on every answer; a skewed provider writes its own. */
export function stampDate(response: ServerResponse, clock: ProviderClock): void {
  if (clock.offsetMs !== 0) response.setHeader('Date', clock.now().toUTCString());
}

const TIME_FIELDS = ['created_at', 'started_at', 'completed_at', 'deadline'] as const;

/** A prediction document with its times moved onto the provider's clock. */
export function onProviderClock<T extends Record<string, unknown>>(document: T, clock: ProviderClock): T {
  if (clock.offsetMs === 0) return document;
  const shifted: Record<string, unknown> = { ...document };
  for (const field of TIME_FIELDS) {
    const value = document[field];
    if (typeof value === 'string') shifted[field] = new Date(Date.parse(value) + clock.offsetMs).toISOString();
  }
  return shifted as T;
}
