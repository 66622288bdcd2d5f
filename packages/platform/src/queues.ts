import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';

export interface QueueNames {
  /** Room staging: ai-staging<QUEUE_SUFFIX>. */
  staging: string;
  /** Description jobs and the legacy stage-room bridge: ai<QUEUE_SUFFIX>. */
  ai: string;
  /** Search document rebuilds: search-indexing<QUEUE_SUFFIX>. */
  search: string;
}

/** Queue names of docs/system.md 6; every role derives them from the same QUEUE_SUFFIX. */
export function queueNames(suffix: string): QueueNames {
  return {
    staging: `ai-staging${suffix}`,
    ai: `ai${suffix}`,
    search: `search-indexing${suffix}`,
  };
}

/** Redis hash holding a property's search document (field `images`), docs/system.md 2.4. */
export function searchDocumentKey(propertyId: string): string {
  return `psearch:property:${propertyId}`;
}

export type RedisRole = 'worker' | 'producer';

export interface CreateRedisOptions {
  role: RedisRole;
  /** Shown in CLIENT LIST, so a connection can be traced to its process. */
  connectionName?: string;
  /** Producer only: how long one command may take before it fails (default 5000 ms). */
  commandTimeoutMs?: number;
  /**
   * Receives connection errors (a reconnect follows). Without it ioredis prints them to stderr as
   * unhandled error events, which is noisy but never silent.
   */
  onError?: (error: Error) => void;
}

/**
 * Redis/Valkey connection for BullMQ and for plain commands (search documents).
 *
 * - `worker`: `maxRetriesPerRequest: null`, which BullMQ requires for the blocking connections of
 *   a Worker or QueueEvents (it throws otherwise), so commands wait out a Redis restart instead
 *   of failing jobs. Use it for everything in the worker process.
 * - `producer`: fails fast. A web or api request that enqueues must get an error within a
 *   second or two, not hang while Redis is down: the ai_jobs row is the outbox and the worker's
 *   dispatcher re-adds the queue job later. Offline queueing is off and each command is retried
 *   once on reconnect at most.
 *
 * BullMQ rejects connections with an ioredis `keyPrefix`; isolation between test runs and
 * deployments comes from QUEUE_SUFFIX and BullMQ's own `prefix` option instead.
 */
export function createRedis(url: string, options: CreateRedisOptions): Redis {
  const common: RedisOptions = {
    connectionName: options.connectionName,
    // Reconnect forever with a capped backoff; a Redis restart must not need a process restart.
    retryStrategy: (attempt) => Math.min(250 * 2 ** Math.min(attempt, 6), 10_000),
  };
  const byRole: RedisOptions =
    options.role === 'worker'
      ? { maxRetriesPerRequest: null, enableOfflineQueue: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000, commandTimeout: options.commandTimeoutMs ?? 5_000 };
  const redis = new Redis(url, { ...common, ...byRole });
  if (options.onError !== undefined) redis.on('error', options.onError);
  return redis;
}

/**
 * What ioredis rejects a command with when it could not reach Redis, rather than Redis answering
 * with an error (a ReplyError): not connected while the offline queue is off (a producer during an
 * outage), the connection closed under the command, the producer's command timeout, or the
 * retries per request used up. ioredis gives these no code, so they are told by their messages.
 */
const UNREACHABLE_MESSAGES = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  'Command timed out',
]);

/** {@link waitForRedis} gave up: the connection did not become ready in time, or ended first. */
class RedisNotReadyError extends Error {
  override name = 'RedisNotReadyError';
}

/**
 * True when `error` says Redis could not be reached for a command (or was not ready for one, see
 * {@link waitForRedis}), so trying again later can help.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (error instanceof RedisNotReadyError) return true;
  // Not `instanceof Error`: an error may come from another realm (Jest's, for one).
  if (typeof error !== 'object' || error === null) return false;
  return (
    ('name' in error && error.name === 'MaxRetriesPerRequestError') ||
    ('message' in error && typeof error.message === 'string' && UNREACHABLE_MESSAGES.has(error.message))
  );
}

/**
 * True for an error of a Redis connection's socket (a refused connect, a reset or timed-out
 * socket): ioredis raises it on the connection's `error` event before reconnecting, and every
 * BullMQ queue and worker on that connection relays it as an error of its own. createRedis's
 * `onError` logs it once per connection, so the relayed copies say nothing new.
 */
export function isRedisConnectionError(error: unknown): boolean {
  // Node's socket errors name the system call that failed (connect, read, write, getaddrinfo).
  return typeof error === 'object' && error !== null && 'syscall' in error && typeof error.syscall === 'string';
}

/** A BullMQ Worker or Queue, as far as its `error` event goes. */
interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Hands `log` the errors of a BullMQ worker (or queue) that are its own, leaving out the errors of
 * its connections that it relays ({@link isRedisConnectionError}): those are logged once by the
 * connection, and a worker relays each one again per connection.
 */
export function onOwnErrors(emitter: ErrorEmitter, log: (error: Error) => void): void {
  emitter.on('error', (error) => {
    if (!isRedisConnectionError(error)) log(error);
  });
}

/**
 * Resolves once the connection is ready, or rejects after `timeoutMs`. A producer with the
 * offline queue disabled rejects commands sent before the handshake finishes, so boot code and
 * /readyz wait here first.
 */
export async function waitForRedis(redis: Redis, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new RedisNotReadyError(`Redis not ready after ${timeoutMs} ms (status ${redis.status})`));
    }, timeoutMs);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const onEnd = (): void => {
      cleanup();
      reject(new RedisNotReadyError('Redis connection ended before it became ready'));
    };
    function cleanup(): void {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
    }
    redis.on('ready', onReady);
    redis.on('end', onEnd);
  });
}
