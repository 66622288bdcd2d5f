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
import { createPaidStartLimiter } from './paid-start-limiter';
import type { PaidStartLimiter, RecordedStart } from './paid-start-limiter';

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
    const token = await limiter.tryAcquire(id);
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
    const denied = await limiter.tryAcquire('right-after-loss');
    expect(denied).toEqual({ granted: false, retryInMs: expect.any(Number) });

    for (let i = 0; i < LIMIT; i += 1) await buyOne(limiter, ledger, `after-${i}`);
    expect(ledger.grants()).toHaveLength(2 * LIMIT);
    expect(slidingWindowPeak(ledger.grants(), WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it('two workers rebuilding at once count each recorded start once and stay within the limit', async () => {
    const ledger = createLedger();
    const [a, b] = [limiterOn(ledger, 'limiter-test:race'), limiterOn(ledger, 'limiter-test:race')];
    for (let i = 0; i < LIMIT - 1; i += 1) await buyOne(a!, ledger, `before-${i}`);
    await new Redis(server.url).flushall();

    const answers = await Promise.all([a!.tryAcquire('a-1'), b!.tryAcquire('b-1')]);
    // LIMIT - 1 recorded starts survive in the ledger: exactly one of the two may go ahead.
    expect(answers.filter((answer) => answer.granted)).toHaveLength(1);
  });
});
