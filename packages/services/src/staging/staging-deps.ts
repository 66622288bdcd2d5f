import type { Redis } from 'ioredis';
import type { ProducerValues } from '@staging/config/producer-values';
import type { Db } from '@staging/db/client';
import type { Logger } from '@staging/platform/logger';
import type { StagingQueue } from './staging-queue';

/** Time source, injected so tests can stand at an exact instant (e.g. the alias sunset). */
export interface Clock {
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** What a producer (web or api) needs to submit staging jobs. */
export interface StagingProducerDeps {
  db: Db;
  stagingQueue: StagingQueue;
  logger: Logger;
  clock: Clock;
  staging: {
    /** The kill switch as parsed by @staging/config: true only for the exact string 'true'. */
    enabled: boolean;
    /** AI_DAILY_PURCHASE_CAP as parsed by @staging/config; null means no cap. Shown, not enforced, here. */
    dailyPurchaseCap: number | null;
    /** Persisted with every new job (docs/system.md 2.2, 2.9). */
    producer: ProducerValues;
    /** AI_STAGING_LEGACY_ALIAS_SUNSET_AT: the last instant legacy style names are accepted. */
    legacyAliasSunsetAt: Date;
    /** Provider model persisted per job, e.g. `openai/gpt-image-2` (docs/system.md 9.6). */
    providerModel: string;
  };
}

/** What cancel, read and queue-maintenance use cases need (no flag: they work while it is off). */
export type StagingActionDeps = Pick<StagingProducerDeps, 'db' | 'stagingQueue' | 'logger' | 'clock'>;

/** What job reads need: the ledger, and the queue store where waiting jobs' places in line are kept. */
export type JobReadDeps = StagingActionDeps & { redis: Redis };
