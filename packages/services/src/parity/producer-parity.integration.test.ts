import type { Redis } from 'ioredis';
import { producerValuesFingerprint } from '@staging/config/producer-values';
import { memoryLogger, openTestRedis, uniqueQueueSuffix } from '../staging/testing/staging-test-kit';
import {
  findParityMismatches,
  listLiveProducerFingerprints,
  producerParityKey,
  publishProducerFingerprint,
  startProducerFingerprintPublisher,
} from './producer-parity';

const VALUES = {
  quality: 'medium',
  aspectRatio: '1:1',
  outputFormat: 'jpeg',
  outputCompression: 92,
} as const;
const OTHER = { ...VALUES, aspectRatio: '3:2' } as const;

let redis: Redis;
let suffix: string;

beforeAll(() => {
  redis = openTestRedis();
});

beforeEach(() => {
  suffix = uniqueQueueSuffix();
});

afterEach(async () => {
  await redis.del(producerParityKey(suffix));
});

afterAll(() => {
  redis.disconnect();
});

describe('producer fingerprints', () => {
  it('publishes one entry per process with a TTL on the namespace key', async () => {
    const entry = await publishProducerFingerprint(redis, {
      role: 'api',
      instanceId: 'api-1',
      values: VALUES,
      queueSuffix: suffix,
      ttlSeconds: 60,
    });
    expect(entry.fingerprint).toBe(producerValuesFingerprint(VALUES));
    const ttl = await redis.ttl(producerParityKey(suffix));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect(await listLiveProducerFingerprints(redis, suffix)).toEqual([entry]);
  });

  it('ignores and prunes entries past their expiry; other namespaces are separate', async () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    await publishProducerFingerprint(redis, {
      role: 'web',
      instanceId: 'old',
      values: VALUES,
      queueSuffix: suffix,
      ttlSeconds: 30,
      now,
    });
    await publishProducerFingerprint(redis, {
      role: 'web',
      instanceId: 'new',
      values: VALUES,
      queueSuffix: suffix,
      ttlSeconds: 30,
      now: new Date(now.getTime() + 20_000),
    });
    const other = uniqueQueueSuffix();
    await publishProducerFingerprint(redis, {
      role: 'api',
      instanceId: 'x',
      values: OTHER,
      queueSuffix: other,
    });

    const live = await listLiveProducerFingerprints(redis, suffix, new Date(now.getTime() + 30_000));
    expect(live.map((e) => e.instanceId)).toEqual(['new']);
    expect(await redis.hkeys(producerParityKey(suffix))).toEqual(['web:new']);
    await redis.del(producerParityKey(other));
  });

  it('finds every producer whose values differ from the worker', async () => {
    await publishProducerFingerprint(redis, {
      role: 'worker',
      instanceId: 'w',
      values: VALUES,
      queueSuffix: suffix,
    });
    await publishProducerFingerprint(redis, {
      role: 'api',
      instanceId: 'a',
      values: VALUES,
      queueSuffix: suffix,
    });
    await publishProducerFingerprint(redis, {
      role: 'web',
      instanceId: 'b',
      values: OTHER,
      queueSuffix: suffix,
    });
    const mismatches = findParityMismatches(
      producerValuesFingerprint(VALUES),
      await listLiveProducerFingerprints(redis, suffix),
    );
    expect(mismatches.map((m) => `${m.role}:${m.instanceId}`)).toEqual(['web:b']);
    expect(mismatches[0]?.values).toEqual(OTHER);
  });

  it('the periodic publisher publishes at start and withdraws its entry on stop', async () => {
    const publisher = startProducerFingerprintPublisher({
      redis,
      role: 'api',
      values: VALUES,
      queueSuffix: suffix,
      logger: memoryLogger().logger,
      instanceId: 'api-periodic',
      intervalMs: 50,
    });
    await publisher.runNow();
    expect((await listLiveProducerFingerprints(redis, suffix)).map((e) => e.instanceId)).toEqual([
      'api-periodic',
    ]);
    await publisher.stop();
    expect(await listLiveProducerFingerprints(redis, suffix)).toEqual([]);
  });
});
