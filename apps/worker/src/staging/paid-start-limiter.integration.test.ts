/**
 * The paid-start limiter against a real Redis of its own (so it may be flushed and restarted)
 * when Redis loses its data: the sliding window of grants must never exceed the limit, because
 * the lost log is rebuilt from the ledger before anything is granted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '@staging/stack/private-redis';
import type { PrivateRedis } from '@staging/stack/private-redis';
import { slidingWindowPeak } from '@staging/domain/sliding-window';
import { createPaidStartLimiter, readPlacesInLine } from '@staging/services/staging/paid-start-limiter';
import type { PaidStartLimiter, RecordedStart } from '@staging/services/staging/paid-start-limiter';

const LIMIT = 4;
// Far longer than the data loss takes (an empty restart and the client's reconnect take seconds on
// a busy machine): the grants made before the loss must still be in the window when it is over.
const WINDOW_MS = 8_000;
const HOLD_MS = 1_000;

let server: PrivateRedis;
const connections: Redis[] = [];

beforeAll(async () => {
  server = await startPrivateRedis();
});

afterEach(() => {
  for (const connection of connections.splice(0)) connection.disconnect();
});

afterAll(async () => {
  await server.stop();
});

/** What the database would hold: every granted creation, with the time it settled. */
function createLedger() {
  const starts: RecordedStart[] = [];
  return {
    starts,
    grants: () => starts.map((start) => start.scoreMs),
    load: async (sinceMs: number) => starts.filter((start) => start.scoreMs >= Date.now() - sinceMs),
  };
}

function limiterOn(ledger: ReturnType<typeof createLedger>, key: string): PaidStartLimiter {
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  connections.push(redis);
  return createPaidStartLimiter({
    redis,
    key,
    limit: LIMIT,
    windowMs: WINDOW_MS,
    inFlightHoldMs: HOLD_MS,
    loadRecordedStarts: ledger.load,
  });
}

/** Acquires until one token is granted, waiting as long as the limiter says; then "creates". */
async function buyOne(limiter: PaidStartLimiter, ledger: ReturnType<typeof createLedger>, id: string): Promise<void> {
  for (;;) {
    const token = await limiter.tryAcquire({ tokenId: id, jobId: id, party: id });
    if (token.granted) {
      await limiter.settle(id);
      ledger.starts.push({ member: id, scoreMs: Date.now() });
      return;
    }
    await sleep(token.retryInMs);
  }
}

describe('paid-start limiter after Redis data loss', () => {
  it.each([
    ['FLUSHALL', () => new Redis(server.url).flushall().then(() => undefined)],
    ['an empty restart', () => server.restartEmpty()],
  ] as const)('after %s it grants nothing beyond the limit in any sliding window', async (_name, loseData) => {
    const ledger = createLedger();
    const limiter = limiterOn(ledger, `limiter-test:${_name}`);
    for (let i = 0; i < LIMIT; i += 1) await buyOne(limiter, ledger, `before-${i}`);

    await loseData();
    const denied = await limiter.tryAcquire({ tokenId: 'right-after-loss', jobId: 'right-after-loss', party: 'p' });
    expect(denied).toEqual({ granted: false, retryInMs: expect.any(Number), position: expect.any(Number) });
    // It gives up its place, as a job that ended does; otherwise the line would wait for it to ask again.
    await limiter.leave('right-after-loss');

    for (let i = 0; i < LIMIT; i += 1) await buyOne(limiter, ledger, `after-${i}`);
    expect(ledger.grants()).toHaveLength(2 * LIMIT);
    expect(slidingWindowPeak(ledger.grants(), WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it('two workers rebuilding at once count each recorded start once and stay within the limit', async () => {
    const ledger = createLedger();
    const [a, b] = [limiterOn(ledger, 'limiter-test:race'), limiterOn(ledger, 'limiter-test:race')];
    for (let i = 0; i < LIMIT - 1; i += 1) await buyOne(a!, ledger, `before-${i}`);
    const firstStartLeavesWindowAt = ledger.starts[0]!.scoreMs + WINDOW_MS;
    await new Redis(server.url).flushall();

    // Both rebuild at once; LIMIT - 1 recorded starts survive in the ledger, so exactly one slot
    // is left in the window: one of the two gets it once the pace allows, the other does not.
    const asks = [
      { limiter: a!, id: 'a-1' },
      { limiter: b!, id: 'b-1' },
    ];
    const answers = await Promise.all(asks.map(({ limiter, id }) => limiter.tryAcquire({ tokenId: id, jobId: id, party: id })));
    expect(answers.filter((answer) => answer.granted)).toHaveLength(0);
    const head = asks[answers.findIndex((answer) => !answer.granted && answer.position === 1)]!;
    const other = asks.find((ask) => ask !== head)!;
    await buyOne(head.limiter, ledger, head.id);
    // Counted twice, the rebuilt log would have kept every slot taken until the first start left.
    expect(Date.now()).toBeLessThan(firstStartLeavesWindowAt);
    expect(await other.limiter.tryAcquire({ tokenId: other.id, jobId: other.id, party: other.id })).toMatchObject({ granted: false });
  });
});

/** A job that asks for a start whenever the limiter says to, until it is granted. */
async function startWhenGranted(
  limiter: PaidStartLimiter,
  jobId: string,
  party: string,
  granted: string[],
  beforeSettle: (tokenId: string) => Promise<void> = async () => undefined,
): Promise<void> {
  for (;;) {
    const token = await limiter.tryAcquire({ tokenId: `${jobId}:token`, jobId, party });
    if (token.granted) {
      granted.push(jobId);
      await beforeSettle(`${jobId}:token`);
      await limiter.settle(`${jobId}:token`);
      return;
    }
    await sleep(token.retryInMs);
  }
}

describe('the start line in front of the limiter', () => {
  // Short enough to run a few starts quickly: one start every 200 ms.
  const LINE_LIMIT = 4;
  const LINE_WINDOW_MS = 800;
  const IN_FLIGHT_HOLD_MS = 100;
  const INTERVAL_MS = LINE_WINDOW_MS / LINE_LIMIT;

  function lineLimiter(key: string, options: { wake?: (jobId: string) => Promise<void>; leaseGraceMs?: number; windowMs?: number } = {}) {
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    connections.push(redis);
    const limiter = createPaidStartLimiter({
      redis,
      key,
      limit: LINE_LIMIT,
      windowMs: LINE_WINDOW_MS,
      inFlightHoldMs: IN_FLIGHT_HOLD_MS,
      loadRecordedStarts: async () => [],
      ...options,
    });
    return { redis, limiter };
  }

  it('spaces starts one interval apart instead of granting the limit at once', async () => {
    const paceIntervalMs = 1_000;
    const key = `line-test:pace:${Date.now()}`;
    const { redis, limiter } = lineLimiter(key, { windowMs: paceIntervalMs * LINE_LIMIT });
    const grantedAt: number[] = [];
    // Each grant as Redis timed it (its log holds the token at that instant plus the in-flight
    // hold), not when this process saw it: on a busy machine the two differ by hundreds of ms.
    const readGrant = async (tokenId: string) => {
      grantedAt.push(Number(await redis.zscore(key, tokenId)) - IN_FLIGHT_HOLD_MS);
    };
    await Promise.all(Array.from({ length: LINE_LIMIT }, (_, i) => startWhenGranted(limiter, `job-${i}`, 'agent-a', [], readGrant)));
    grantedAt.sort((x, y) => x - y);
    const gaps = grantedAt.slice(1).map((at, i) => at - grantedAt[i]!);
    // Slots keep to a grid, so a start may come up to a tenth of an interval early after a late one.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(paceIntervalMs * 0.9 - 50);
  });

  it("puts another agent's single job before the tail of a batch, and says where each job stands", async () => {
    const key = `line-test:fair:${Date.now()}`;
    const { redis, limiter } = lineLimiter(key);
    const order: string[] = [];
    const batch = Array.from({ length: 6 }, (_, i) => `a-${i}`);
    // The batch joins first, in order; a-0 starts at once.
    const asked = await Promise.all(batch.map((jobId) => limiter.tryAcquire({ tokenId: `${jobId}:probe`, jobId, party: 'agent-a' })));
    expect(asked.filter((answer) => answer.granted)).toHaveLength(1);
    order.push('a-0');
    const places = await readPlacesInLine(redis, key, [...batch, 'b-0']);
    expect([...places.entries()].map(([jobId, place]) => [jobId, place.position])).toEqual(batch.slice(1).map((jobId, i) => [jobId, i + 1]));
    const [second, third] = [places.get('a-1')!, places.get('a-2')!];
    expect(third.expectedStartAt.getTime() - second.expectedStartAt.getTime()).toBe(INTERVAL_MS);

    // Agent B's one photo arrives after the batch: it is next, not seventh.
    const b = await limiter.tryAcquire({ tokenId: 'b-0:probe', jobId: 'b-0', party: 'agent-b' });
    expect(b).toMatchObject({ granted: false, position: 1 });
    await Promise.all([...batch.slice(1).map((jobId) => startWhenGranted(limiter, jobId, 'agent-a', order)), startWhenGranted(limiter, 'b-0', 'agent-b', order)]);
    expect(order).toEqual(['a-0', 'b-0', 'a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
  });

  it('wakes the new head when the head leaves, and drops a head that stopped asking', async () => {
    const woken: string[] = [];
    const { limiter } = lineLimiter(`line-test:leave:${Date.now()}`, {
      wake: async (jobId) => {
        woken.push(jobId);
      },
      leaseGraceMs: 300,
    });
    await startWhenGranted(limiter, 'first', 'agent-a', []);
    expect(await limiter.tryAcquire({ tokenId: 'x', jobId: 'x', party: 'agent-a' })).toMatchObject({ position: 1 });
    expect(await limiter.tryAcquire({ tokenId: 'y', jobId: 'y', party: 'agent-a' })).toMatchObject({ position: 2 });
    await limiter.leave('x');
    expect(woken).toEqual(['y']);

    // z joins behind y; y never asks again (its worker died) and loses its place after the grace.
    const granted: string[] = [];
    await startWhenGranted(limiter, 'z', 'agent-a', granted);
    expect(granted).toEqual(['z']);
    expect(await limiter.tryAcquire({ tokenId: 'y2', jobId: 'y', party: 'agent-a' })).toMatchObject({ granted: false, position: 1 });
  });
});
