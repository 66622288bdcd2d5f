import type { Redis } from 'ioredis';
import { createProviderClock, providerClockKey } from './provider-clock';
import { openTestRedis, uniqueQueueSuffix } from './testing/staging-test-kit';

let redis: Redis;
const suffix = uniqueQueueSuffix();

beforeAll(() => {
  redis = openTestRedis();
});

afterAll(async () => {
  await redis.del(providerClockKey(suffix), `${providerClockKey(suffix)}:refused-alert`);
  redis.disconnect();
});

describe('the provider clock in the queue store', () => {
  it('keeps the latest measurement for a day, and reads nothing unreadable', async () => {
    const clock = createProviderClock(redis, suffix);
    expect(await clock.read()).toBeNull();
    await clock.record({ offsetMs: -600_000, uncertaintyMs: 600, measuredAtMs: 1, source: 'date-header' });
    await clock.record({ offsetMs: -599_950, uncertaintyMs: 40, measuredAtMs: 2, source: 'created-at' });
    expect(await clock.read()).toEqual({ offsetMs: -599_950, uncertaintyMs: 40, measuredAtMs: 2, source: 'created-at' });
    const ttl = await redis.ttl(providerClockKey(suffix));
    expect(ttl).toBeGreaterThan(23 * 60 * 60);
    // Named after the namespace's queue, so a stack's cleanup of its keys takes it.
    expect(providerClockKey(suffix)).toContain(`ai-staging${suffix}`);
    await redis.set(providerClockKey(suffix), '{"offsetMs":"soon"}');
    expect(await clock.read()).toBeNull();
  });

  it('gives the refused-callback alert to one caller per interval', async () => {
    const clock = createProviderClock(redis, suffix);
    const claims = await Promise.all([clock.claimRefusedCallbackAlert(), clock.claimRefusedCallbackAlert(), createProviderClock(redis, suffix).claimRefusedCallbackAlert()]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});
