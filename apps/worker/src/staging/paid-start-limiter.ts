import type { Redis } from 'ioredis';

/**
 * Queue-wide limiter for paid prediction starts (docs/system.md 8: AI_STAGING_RATE_LIMIT_PER_MINUTE).
 *
 * BullMQ's own limiter is a fixed window over every job start (polls, wake-ups, stall re-runs
 * included), which both wastes the budget on free work and lets up to twice the limit through a
 * sliding window. This one is a sliding-window log in one Redis sorted set per queue, consulted
 * only right before a creation, so every worker on the same QUEUE_SUFFIX shares it.
 *
 * An entry is first written with a score in the future (now + `inFlightHoldMs`) because the
 * creation it grants happens later than the grant, by however long the request takes; `settle`
 * then re-stamps it with the time the creation request returned. Because the score is never
 * earlier than the provider's creation time, "fewer than `limit` entries scored within the last
 * window" implies no sliding window of provider creation times holds more than `limit`. A worker
 * that dies before settling leaves a future-scored entry that only makes the limiter stricter
 * until it ages out. Times come from the Redis server clock so workers with skewed clocks agree.
 *
 * Redis may lose the set (FLUSHALL, a restart without persistence) while creations of the last
 * window are still counting. A marker key written with the set tells the two apart: no marker
 * means the log is unknown, and no token is granted until the set is rebuilt, atomically and
 * once, from the ledger's attempts created within the window (all workers write there). An idle
 * set that merely expired keeps its marker, because then nothing in it could still count.
 */
export interface PaidStartLimiter {
  /**
   * Takes a token or says how long to wait before asking again. `tokenId` must be unique per
   * acquisition: every grant counts, even one whose creation is retried after a 429.
   */
  tryAcquire(tokenId: string): Promise<{ granted: true } | { granted: false; retryInMs: number }>;
  /** Marks the creation granted to `tokenId` as finished (succeeded or failed) now. */
  settle(tokenId: string): Promise<void>;
}

/** A creation the ledger knows about: its entry in the log and the time it counts from. */
export interface RecordedStart {
  member: string;
  scoreMs: number;
}

export interface PaidStartLimiterOptions {
  redis: Redis;
  /** Sorted-set key; derived from the queue name so every worker on the queue shares it. */
  key: string;
  /** Creations of the last `sinceMs` from the ledger, to rebuild a lost log. */
  loadRecordedStarts: (sinceMs: number) => Promise<RecordedStart[]>;
  limit: number;
  windowMs: number;
  /** Upper bound of one creation request (its timeout plus a margin). */
  inFlightHoldMs: number;
}

// KEYS[1] = sorted set, KEYS[2] = its marker; ARGV = limit, windowMs, inFlightHoldMs, member.
// Returns {1, 0} when granted, {0, waitMs} otherwise, {-1, 0} when the log must be rebuilt first.
const ACQUIRE = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {-1, 0} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local hold = tonumber(ARGV[3])
-- Entries scored before now - window can no longer share a window with a creation from now on.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - window))
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now + hold, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], (window + hold) * 2)
  return {1, 0}
end
-- The earliest a slot frees is when the oldest settled creation leaves the window. When every
-- counted creation is still in flight (future scores), look again soon: they settle within
-- seconds and their window starts then.
local settled = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1)
local wait
if settled[2] then
  wait = tonumber(settled[2]) + window - now + 1
else
  wait = math.max(50, math.floor(window / 10))
end
if wait < 1 then wait = 1 end
return {0, wait}
`;

// KEYS[1] = sorted set; ARGV = member, windowMs, inFlightHoldMs. Not XX: when the set was lost
// while the creation was in flight, the creation must still count from now.
const SETTLE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], (tonumber(ARGV[2]) + tonumber(ARGV[3])) * 2)
return 1
`;

// KEYS[1] = sorted set, KEYS[2] = marker; ARGV = windowMs, inFlightHoldMs, then member/score pairs.
// The first rebuild after a loss wins; a concurrent one finds the marker and adds nothing.
const REBUILD = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
for i = 3, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
end
if #ARGV > 2 then
  redis.call('PEXPIRE', KEYS[1], (tonumber(ARGV[1]) + tonumber(ARGV[2])) * 2)
end
redis.call('SET', KEYS[2], '1')
return 1
`;

export function createPaidStartLimiter(options: PaidStartLimiterOptions): PaidStartLimiter {
  const { redis, key, limit, windowMs, inFlightHoldMs } = options;
  const marker = `${key}:log`;
  async function rebuild(): Promise<void> {
    const starts = await options.loadRecordedStarts(windowMs + inFlightHoldMs);
    await redis.eval(
      REBUILD,
      2,
      key,
      marker,
      windowMs,
      inFlightHoldMs,
      ...starts.flatMap((start) => [start.member, Math.round(start.scoreMs)]),
    );
  }
  return {
    async tryAcquire(tokenId) {
      // Twice is enough unless Redis keeps losing data; then ask again shortly, never grant blind.
      for (let round = 0; round < 3; round += 1) {
        const [granted, waitMs] = (await redis.eval(
          ACQUIRE,
          2,
          key,
          marker,
          limit,
          windowMs,
          inFlightHoldMs,
          tokenId,
        )) as [number, number];
        if (granted === -1) {
          await rebuild();
          continue;
        }
        return granted === 1 ? { granted: true } : { granted: false, retryInMs: waitMs };
      }
      return { granted: false, retryInMs: 1_000 };
    },
    async settle(tokenId) {
      await redis.eval(SETTLE, 1, key, tokenId, windowMs, inFlightHoldMs);
    },
  };
}

/** The limiter key of a staging queue; one per queue namespace (QUEUE_SUFFIX). */
export function paidStartLimiterKey(queueName: string): string {
  return `staging:paid-starts:${queueName}`;
}
