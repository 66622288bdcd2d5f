/**
 * The latest measurement of the provider's clock against ours, kept in the queue store so the
 * worker (which talks to the provider and measures) and the api (which checks the timestamps of
 * the provider's callbacks) read the same one: `staging:provider-clock:ai-staging<QUEUE_SUFFIX>` (named
 * after the queue, like the other keys of the namespace, so a test's cleanup takes it), JSON of a
 * ClockMeasurement. It expires a day after the last measurement: the worker measures on every
 * provider answer, so only an idle namespace loses it, and its next provider call measures again.
 *
 * Also the alert gate of callbacks refused for their timestamp: one alert per namespace per
 * {@link REFUSED_CALLBACK_ALERT_INTERVAL_MS}, whichever api replica sees the refusal.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { ClockMeasurement } from '@staging/domain/clock-offset';
import { queueNames } from '@staging/platform/queues';

const TTL_SECONDS = 24 * 60 * 60;
export const REFUSED_CALLBACK_ALERT_INTERVAL_MS = 5 * 60_000;

export function providerClockKey(queueSuffix: string): string {
  return `staging:provider-clock:${queueNames(queueSuffix).staging}`;
}

export interface ProviderClock {
  record(measurement: ClockMeasurement): Promise<void>;
  /** Null when nothing was measured in the last day, or the store holds something unreadable. */
  read(): Promise<ClockMeasurement | null>;
  /** True for the first caller of each alert interval: that one raises the alert. */
  claimRefusedCallbackAlert(): Promise<boolean>;
}

// zod's numbers are finite.
const ZClockMeasurement = z.object({
  offsetMs: z.number(),
  uncertaintyMs: z.number(),
  measuredAtMs: z.number(),
  source: z.enum(['date-header', 'created-at']),
}) satisfies z.ZodType<ClockMeasurement>;

function readMeasurement(text: string | null): ClockMeasurement | null {
  if (text === null) return null;
  try {
    const parsed = ZClockMeasurement.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createProviderClock(redis: Redis, queueSuffix: string): ProviderClock {
  const key = providerClockKey(queueSuffix);
  return {
    async record(measurement) {
      await redis.set(key, JSON.stringify(measurement), 'EX', TTL_SECONDS);
    },
    async read() {
      return readMeasurement(await redis.get(key));
    },
    async claimRefusedCallbackAlert() {
      return (await redis.set(`${key}:refused-alert`, '1', 'PX', REFUSED_CALLBACK_ALERT_INTERVAL_MS, 'NX')) === 'OK';
    },
  };
}
