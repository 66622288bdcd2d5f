import type { Redis } from 'ioredis';
import { z } from 'zod';
import { placeInLine, startIntervalMs } from '@staging/domain/start-line';
import type { PlaceInLine } from '@staging/domain/start-line';

/**
 * Queue-wide limiter for paid prediction starts (docs/system.md 8: AI_STAGING_RATE_LIMIT_PER_MINUTE),
 * with a fair line in front of it (docs/decisions/staging.md "A fair share of the start limit").
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
 * Grants are also paced: one per `windowMs / limit`, so the limit is spread over the window
 * instead of spent in a burst that leaves everybody else a minute to wait. Whose grant it is
 * comes from the line: a sorted set of waiting jobs scored by start-time fair queueing per party
 * (the submitting agent), so only the head of the line may take the next slot. A job asks again
 * when its turn should come (position × interval), and the run that takes a slot wakes the new
 * head, so a job that leaves early costs nobody a slot. A job that stops asking (its worker died,
 * it was canceled while parked) keeps its place only until a grace period after its expected
 * turn; then it is dropped and rejoins at the back of its party's share when it asks again.
 *
 * Redis may lose the set (FLUSHALL, a restart without persistence) while creations of the last
 * window are still counting. A marker key written with the set tells the two apart: no marker
 * means the log is unknown, and no token is granted until the set is rebuilt, atomically and
 * once, from the ledger's attempts created within the window (all workers write there), with the
 * pace restarting one interval after the latest of them. An idle set that merely expired keeps
 * its marker, because then nothing in it could still count. The line itself is rebuilt by the
 * waiting jobs asking again.
 */
export interface PaidStartLimiter {
  /**
   * Takes the job's place in line (keeping it if it has one) and a token if it is at the head and
   * a slot is free; otherwise says how long to wait before asking again. `tokenId` must be unique
   * per acquisition: every grant counts, even one whose creation is retried after a 429.
   */
  tryAcquire(request: StartRequest): Promise<{ granted: true } | { granted: false; retryInMs: number; position: number | null }>;
  /** Marks the creation granted to `tokenId` as finished (succeeded or failed) now. */
  settle(tokenId: string): Promise<void>;
  /** Takes the job out of the line (it ended or no longer needs a start); wakes the new head. */
  leave(jobId: string): Promise<void>;
}

export interface StartRequest {
  tokenId: string;
  jobId: string;
  /** Whose share the start counts against: fairShareParty of the job's requester. */
  party: string;
}

/** A creation the ledger knows about: its entry in the log and the time it counts from. */
export interface RecordedStart {
  member: string;
  scoreMs: number;
}

export interface PaidStartLimiterOptions {
  redis: Redis;
  /** Key prefix from {@link paidStartLimiterKey}; every worker on the queue shares it. */
  key: string;
  /** Creations of the last `sinceMs` from the ledger, to rebuild a lost log. */
  loadRecordedStarts: (sinceMs: number) => Promise<RecordedStart[]>;
  limit: number;
  windowMs: number;
  /** Upper bound of one creation request (its timeout plus a margin). */
  inFlightHoldMs: number;
  /** How long past its expected turn a job that stopped asking keeps its place. */
  leaseGraceMs?: number;
  /** Makes a parked job ask again now (the new head of the line). */
  wake?: (jobId: string) => Promise<void>;
}

/** Past its turn by this much, a job that has not asked is presumed gone (a stalled delivery is re-run within 30 s). */
const DEFAULT_LEASE_GRACE_MS = 45_000;
/** The line's state outlives an idle day, no more. */
const LINE_TTL_MS = 86_400_000;

interface LineKeys {
  log: string;
  marker: string;
  line: string;
  leases: string;
  tags: string;
  state: string;
}

function lineKeys(key: string): LineKeys {
  return {
    log: key,
    marker: `${key}:log`,
    line: `${key}:line`,
    leases: `${key}:leases`,
    tags: `${key}:tags`,
    state: `${key}:state`,
  };
}

const keyList = (keys: LineKeys) => [keys.log, keys.marker, keys.line, keys.leases, keys.tags, keys.state];

// KEYS = log, marker, line, leases, tags, state (keyList). The state hash holds `v` (the line's
// virtual time: the tag of the latest grant), `pace` (the earliest next grant), `interval` and
// `seq` (join order). The line scores a job by tag * 2^21 + join sequence, so ties go in join order.
const NEXT_SLOT = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- The earliest time the next grant may happen: the pace, and a free place in the sliding window.
-- When every counted creation is still in flight (future scores), look again soon: they settle
-- within seconds and their window starts then.
local function nextSlot(now, limit, window)
  local slot = now
  if redis.call('ZCOUNT', KEYS[1], '(' .. (now - window), '+inf') >= limit then
    local settled = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. (now - window), now, 'WITHSCORES', 'LIMIT', 0, 1)
    if settled[2] then slot = tonumber(settled[2]) + window + 1 else slot = now + math.max(50, math.floor(window / 10)) end
  end
  return math.max(slot, tonumber(redis.call('HGET', KEYS[6], 'pace') or '0'))
end
`;

const TAG_SCALE = 2_097_152;
/** A start may come this share of an interval early to keep to its grid (so starts are at least 0.9 interval apart). */
const PACE_CATCH_UP_DIVISOR = 10;

// ARGV = limit, windowMs, inFlightHoldMs, intervalMs, leaseGraceMs, lineTtlMs, token, jobId, party.
// Returns {1, 0, 0, newHead} when granted, {0, waitMs, position, ''} otherwise, {-1, 0, 0, ''}
// when the log must be rebuilt first.
const ACQUIRE = `${NEXT_SLOT}
if redis.call('EXISTS', KEYS[2]) == 0 then return {-1, 0, 0, ''} end
local now = nowMs()
local limit, window, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local interval, grace, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local token, job, party = ARGV[7], ARGV[8], ARGV[9]
-- Entries scored before now - window can no longer share a window with a creation from now on.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - window))
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. now)) do
  redis.call('ZREM', KEYS[3], gone)
  redis.call('ZREM', KEYS[4], gone)
end
local score = redis.call('ZSCORE', KEYS[3], job)
if not score then
  local tag = math.max(tonumber(redis.call('HGET', KEYS[6], 'v') or '0'), tonumber(redis.call('HGET', KEYS[5], party) or '0'))
  redis.call('HSET', KEYS[5], party, tag + 1)
  score = tag * ${TAG_SCALE} + (redis.call('HINCRBY', KEYS[6], 'seq', 1) % ${TAG_SCALE})
  redis.call('ZADD', KEYS[3], score, job)
else
  score = tonumber(score)
end
redis.call('HSET', KEYS[6], 'interval', interval, 'limit', limit, 'window', window)
for i = 3, 6 do redis.call('PEXPIRE', KEYS[i], ttl) end
local rank = redis.call('ZRANK', KEYS[3], job)
local slot = nextSlot(now, limit, window)
if rank == 0 and slot <= now then
  redis.call('ZADD', KEYS[1], now + hold, token)
  redis.call('PEXPIRE', KEYS[1], (window + hold) * 2)
  redis.call('ZREM', KEYS[3], job)
  redis.call('ZREM', KEYS[4], job)
  local tag = math.floor(score / ${TAG_SCALE})
  -- Slots keep to a grid of one interval: a head that asks a little late (its delayed job is
  -- promoted some milliseconds after its time) does not push every later start back by as much.
  local pace = math.max(tonumber(redis.call('HGET', KEYS[6], 'pace') or '0'), now - math.floor(interval / ${PACE_CATCH_UP_DIVISOR}))
  redis.call('HSET', KEYS[6], 'v', math.max(tag, tonumber(redis.call('HGET', KEYS[6], 'v') or '0')), 'pace', pace + interval)
  local head = redis.call('ZRANGE', KEYS[3], 0, 0)
  return {1, 0, 0, head[1] or ''}
end
local waitMs = math.max(slot - now, 0) + rank * interval
if waitMs < 1 then waitMs = 1 end
redis.call('ZADD', KEYS[4], now + waitMs + grace, job)
return {0, waitMs, rank + 1, ''}
`;

const ZAcquireReply = z.tuple([z.number(), z.number(), z.number(), z.string()]);

// ARGV = jobId. Returns the new head when the job was the head, '' otherwise.
const LEAVE = `
local head = redis.call('ZRANGE', KEYS[3], 0, 0)
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('ZREM', KEYS[3], ARGV[1]) == 1 and head[1] == ARGV[1] then
  local next = redis.call('ZRANGE', KEYS[3], 0, 0)
  return next[1] or ''
end
return ''
`;

// ARGV = job IDs. Returns now, the next slot and the interval (as the workers last set them),
// then each job's rank in the line (-1 when it is not in it); {} when no worker has asked yet.
// Reads only.
const PEEK = `${NEXT_SLOT}
local settings = redis.call('HMGET', KEYS[6], 'limit', 'window', 'interval')
if not settings[3] then return {} end
local now = nowMs()
local out = {now, nextSlot(now, tonumber(settings[1]), tonumber(settings[2])), tonumber(settings[3])}
for i = 1, #ARGV do
  local rank = redis.call('ZRANK', KEYS[3], ARGV[i])
  out[#out + 1] = rank or -1
end
return out
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

// KEYS = keyList; ARGV = windowMs, inFlightHoldMs, intervalMs, then member/score pairs. The first
// rebuild after a loss wins; a concurrent one finds the marker and adds nothing.
const REBUILD = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local latest = 0
for i = 4, #ARGV, 2 do
  local score = tonumber(ARGV[i + 1])
  redis.call('ZADD', KEYS[1], score, ARGV[i])
  if score > latest then latest = score end
end
if #ARGV > 3 then
  redis.call('PEXPIRE', KEYS[1], (tonumber(ARGV[1]) + tonumber(ARGV[2])) * 2)
  redis.call('HSET', KEYS[6], 'pace', latest + tonumber(ARGV[3]))
end
redis.call('SET', KEYS[2], '1')
return 1
`;

export function createPaidStartLimiter(options: PaidStartLimiterOptions): PaidStartLimiter {
  const { redis, limit, windowMs, inFlightHoldMs } = options;
  const keys = lineKeys(options.key);
  const intervalMs = startIntervalMs(limit, windowMs);
  const leaseGraceMs = options.leaseGraceMs ?? DEFAULT_LEASE_GRACE_MS;
  async function rebuild(): Promise<void> {
    const starts = await options.loadRecordedStarts(windowMs + inFlightHoldMs);
    await redis.eval(
      REBUILD,
      6,
      ...keyList(keys),
      windowMs,
      inFlightHoldMs,
      intervalMs,
      ...starts.flatMap((start) => [start.member, Math.round(start.scoreMs)]),
    );
  }
  async function wake(jobId: string): Promise<void> {
    if (jobId !== '' && options.wake !== undefined) await options.wake(jobId);
  }
  return {
    async tryAcquire({ tokenId, jobId, party }) {
      // Twice is enough unless Redis keeps losing data; then ask again shortly, never grant blind.
      for (let round = 0; round < 3; round += 1) {
        const [granted, waitMs, position, head] = ZAcquireReply.parse(await redis.eval(
          ACQUIRE,
          6,
          ...keyList(keys),
          limit,
          windowMs,
          inFlightHoldMs,
          intervalMs,
          leaseGraceMs,
          LINE_TTL_MS,
          tokenId,
          jobId,
          party,
        ));
        if (granted === -1) {
          await rebuild();
          continue;
        }
        if (granted === 1) {
          await wake(head);
          return { granted: true };
        }
        return { granted: false, retryInMs: waitMs, position };
      }
      return { granted: false, retryInMs: 1_000, position: null };
    },
    async settle(tokenId) {
      await redis.eval(SETTLE, 1, keys.log, tokenId, windowMs, inFlightHoldMs);
    },
    async leave(jobId) {
      await wake(z.string().parse(await redis.eval(LEAVE, 6, ...keyList(keys), jobId)));
    },
  };
}

/**
 * Where each of `jobIds` stands in the line of the limiter at `key`, for the ones waiting in it:
 * read-only, for the api's answers (the workers' asks keep the line; this never changes it).
 */
export async function readPlacesInLine(redis: Redis, key: string, jobIds: readonly string[]): Promise<Map<string, PlaceInLine>> {
  const places = new Map<string, PlaceInLine>();
  if (jobIds.length === 0) return places;
  const [, nextSlotAtMs, intervalMs, ...ranks] = z.array(z.number()).parse(await redis.eval(PEEK, 6, ...keyList(lineKeys(key)), ...jobIds));
  if (nextSlotAtMs === undefined || intervalMs === undefined) return places;
  jobIds.forEach((jobId, i) => {
    const rank = ranks[i] ?? -1;
    if (rank >= 0) places.set(jobId, placeInLine({ rank, nextSlotAtMs, intervalMs }));
  });
  return places;
}

/** The limiter key of a staging queue; one per queue namespace (QUEUE_SUFFIX). */
export function paidStartLimiterKey(queueName: string): string {
  return `staging:paid-starts:${queueName}`;
}
