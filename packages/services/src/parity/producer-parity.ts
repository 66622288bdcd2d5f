/**
 * Producer parity (docs/system.md 2.9): while the legacy bridge exists, quality, aspect ratio, output
 * format and compression must be identical on web, api and worker, because the worker
 * materializes legacy messages from its own environment. Every process publishes the fingerprint
 * of its values to the queue store; the worker (and `pnpm doctor`) compare the live ones.
 *
 * Layout: one hash per queue namespace, `staging:producer-parity<QUEUE_SUFFIX>`, field
 * `<role>:<instanceId>`, value JSON with an `expiresAt`. Entries of processes that stopped
 * publishing are ignored (and pruned) once expired; the key itself carries a TTL too, so a
 * namespace nobody publishes to disappears.
 */
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { producerValuesFingerprint } from '@staging/config/producer-values';
import type { ProducerValues } from '@staging/config/producer-values';
import type { Logger } from '@staging/platform/logger';
import { startIntervalLoop, type IntervalLoop } from '@staging/platform/interval-loop';
import { waitForRedis } from '@staging/platform/queues';

export type ProducerRole = 'web' | 'api' | 'worker';

export interface ProducerFingerprintEntry {
  role: ProducerRole;
  instanceId: string;
  fingerprint: string;
  values: ProducerValues;
  publishedAt: string;
  expiresAt: string;
}

export interface PublishFingerprintOptions {
  role: ProducerRole;
  instanceId: string;
  values: ProducerValues;
  queueSuffix: string;
  /** Lifetime of the entry; default 90 s, three publish intervals. */
  ttlSeconds?: number;
  now?: Date;
}

export const DEFAULT_FINGERPRINT_TTL_SECONDS = 90;
export const DEFAULT_PUBLISH_INTERVAL_MS = 30_000;

/** The hash holding the fingerprints of one queue namespace. */
export function producerParityKey(queueSuffix: string): string {
  return `staging:producer-parity${queueSuffix}`;
}

/** Host name plus process ID: unique per running process, readable in an alert. */
export function defaultInstanceId(): string {
  return `${hostname()}:${process.pid}`;
}

/** Writes (or refreshes) this process's fingerprint entry. */
export async function publishProducerFingerprint(
  redis: Redis,
  options: PublishFingerprintOptions,
): Promise<ProducerFingerprintEntry> {
  const now = options.now ?? new Date();
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_FINGERPRINT_TTL_SECONDS;
  const entry: ProducerFingerprintEntry = {
    role: options.role,
    instanceId: options.instanceId,
    fingerprint: producerValuesFingerprint(options.values),
    values: options.values,
    publishedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
  };
  const key = producerParityKey(options.queueSuffix);
  await redis
    .multi()
    .hset(key, `${options.role}:${options.instanceId}`, JSON.stringify(entry))
    .expire(key, ttlSeconds)
    .exec();
  return entry;
}

/** Removes this process's entry (graceful shutdown), so a stopped process is not compared. */
export async function withdrawProducerFingerprint(
  redis: Redis,
  options: { role: ProducerRole; instanceId: string; queueSuffix: string },
): Promise<void> {
  await redis.hdel(producerParityKey(options.queueSuffix), `${options.role}:${options.instanceId}`);
}

/** Checks the fields that listing, pruning and comparing read; the rest is as the publisher wrote it. */
function isProducerFingerprintEntry(value: unknown): value is ProducerFingerprintEntry {
  return (
    typeof value === 'object' &&
    value !== null &&
    'fingerprint' in value &&
    typeof value.fingerprint === 'string' &&
    'expiresAt' in value &&
    typeof value.expiresAt === 'string' &&
    'role' in value &&
    typeof value.role === 'string'
  );
}

function parseEntry(raw: string): ProducerFingerprintEntry | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isProducerFingerprintEntry(value) ? value : null;
  } catch {
    return null;
  }
}

/** Every unexpired entry of the namespace; expired or unreadable ones are pruned. */
export async function listLiveProducerFingerprints(
  redis: Redis,
  queueSuffix: string,
  now: Date = new Date(),
): Promise<ProducerFingerprintEntry[]> {
  const key = producerParityKey(queueSuffix);
  const all = await redis.hgetall(key);
  const live: ProducerFingerprintEntry[] = [];
  const stale: string[] = [];
  for (const [field, raw] of Object.entries(all)) {
    const entry = parseEntry(raw);
    if (entry === null || Date.parse(entry.expiresAt) <= now.getTime()) stale.push(field);
    else live.push(entry);
  }
  if (stale.length > 0) await redis.hdel(key, ...stale);
  return live.sort((a, b) => `${a.role}:${a.instanceId}`.localeCompare(`${b.role}:${b.instanceId}`));
}

/** Entries whose fingerprint differs from `fingerprint`. */
export function findParityMismatches(
  fingerprint: string,
  entries: readonly ProducerFingerprintEntry[],
): ProducerFingerprintEntry[] {
  return entries.filter((entry) => entry.fingerprint !== fingerprint);
}

/**
 * Publishes at start and every `intervalMs` (an interval loop). A failed publish is logged once per
 * outage and retried on the next tick; it never throws into the process (a producer keeps serving
 * while Redis is down). `stop` also withdraws the entry.
 */
export function startProducerFingerprintPublisher(options: {
  redis: Redis;
  role: ProducerRole;
  values: ProducerValues;
  queueSuffix: string;
  logger: Logger;
  instanceId?: string;
  intervalMs?: number;
  ttlSeconds?: number;
}): IntervalLoop {
  const instanceId = options.instanceId ?? defaultInstanceId();
  const intervalMs = options.intervalMs ?? DEFAULT_PUBLISH_INTERVAL_MS;
  const ttlSeconds =
    options.ttlSeconds ?? Math.max(DEFAULT_FINGERPRINT_TTL_SECONDS, Math.ceil((intervalMs * 3) / 1000));
  let failing = false;
  const publishNow = async (): Promise<void> => {
    try {
      // A producer connection (web, api) refuses commands until its handshake is done.
      await waitForRedis(options.redis);
      const entry = await publishProducerFingerprint(options.redis, { ...options, instanceId, ttlSeconds });
      if (failing)
        options.logger.info(
          { event: 'producer_parity.published', role: options.role },
          'producer fingerprint published again',
        );
      else
        options.logger.debug(
          { event: 'producer_parity.published', role: options.role, fingerprint: entry.fingerprint },
          'producer fingerprint published',
        );
      failing = false;
    } catch (error) {
      // Logged once per outage, not once per tick.
      if (!failing)
        options.logger.warn(
          { event: 'producer_parity.publish_failed', role: options.role, err: error },
          'producer fingerprint could not be published',
        );
      failing = true;
    }
  };
  const loop = startIntervalLoop({
    name: 'producer-parity',
    intervalMs,
    logger: options.logger,
    runAtStart: true,
    pass: publishNow,
  });
  return {
    runNow: loop.runNow,
    async stop() {
      // Best effort and bounded: with Redis down the entry simply expires after its TTL.
      const withdrawn = loop
        .stop()
        .then(() =>
          withdrawProducerFingerprint(options.redis, {
            role: options.role,
            instanceId,
            queueSuffix: options.queueSuffix,
          }),
        )
        .catch(() => undefined);
      await Promise.race([withdrawn, new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())]);
    },
  };
}
