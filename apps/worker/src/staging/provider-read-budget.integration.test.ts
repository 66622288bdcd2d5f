/**
 * The shared budget of provider reads against a real Redis: two clients on one key share it, a
 * call over budget never reaches the provider and fails as Replicate's own 429 would, and creates
 * are never counted.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { ProviderError } from '@staging/provider/provider-error';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { Prediction } from '@staging/provider/provider-wire';
import { createReadBudget, withReadBudget } from './provider-read-budget';

let redis: Redis;

beforeAll(() => {
  redis = new Redis(process.env['VALKEY_URL'] ?? 'redis://127.0.0.1:6379');
});

afterAll(() => {
  redis.disconnect();
});

/** A provider that counts the calls that reached it. */
function countingProvider() {
  const calls: string[] = [];
  const prediction = { id: 'p', status: 'succeeded', output: null, error: null, created_at: new Date().toISOString() } as Prediction;
  const record = async (name: string) => {
    calls.push(name);
    return prediction;
  };
  const client: ProviderClient = {
    createPrediction: () => record('create'),
    getPrediction: () => record('get'),
    cancelPrediction: () => record('cancel'),
    listPredictions: async () => (calls.push('list'), { results: [], next: null }),
    getModel: async () => {
      throw new Error('not used');
    },
  };
  return { calls, client };
}

describe('withReadBudget', () => {
  it('lets get, list and cancel share one budget across clients; over it nothing is sent and the caller sees a 429', async () => {
    const key = `test:provider-reads:${randomUUID()}`;
    const a = countingProvider();
    const b = countingProvider();
    const first = withReadBudget(a.client, createReadBudget({ redis, key, limitPerMinute: 3 }));
    const second = withReadBudget(b.client, createReadBudget({ redis, key, limitPerMinute: 3 }));
    await first.getPrediction('p');
    await second.listPredictions();
    await first.cancelPrediction('p');
    const refused = await second.getPrediction('p').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ kind: 'throttled', status: 429 });
    expect((refused as ProviderError).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as ProviderError).retryAfterSeconds).toBeLessThanOrEqual(60);
    expect([...a.calls, ...b.calls]).toEqual(['get', 'cancel', 'list']);
    await redis.del(...(await redis.keys(`${key}:*`)));
  });

  it('never counts creates', async () => {
    const key = `test:provider-reads:${randomUUID()}`;
    const provider = countingProvider();
    const budgeted = withReadBudget(provider.client, createReadBudget({ redis, key, limitPerMinute: 1 }));
    for (let i = 0; i < 3; i += 1) await budgeted.createPrediction({ model: 'o/m', webhook: 'https://x.test/w', input: {} as never });
    await budgeted.getPrediction('p');
    expect(provider.calls).toEqual(['create', 'create', 'create', 'get']);
    await redis.del(...(await redis.keys(`${key}:*`)));
  });
});
