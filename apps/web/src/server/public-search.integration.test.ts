import { createRedis } from '@staging/platform/queues';
import { startPrivateRedis } from '@staging/stack/private-redis';
import type { PrivateRedis } from '@staging/stack/private-redis';
import { searchForPage } from './public-search';

let server: PrivateRedis;
let redis: ReturnType<typeof createRedis>;

beforeAll(async () => {
  server = await startPrivateRedis();
  // The web's own kind of connection (src/server/deps.ts), not yet ready when the first search comes.
  redis = createRedis(server.url, { role: 'producer', connectionName: 'web-test', onError: () => {} });
});

afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

it('answers the search once connected, fails on a bad input, and says unavailable while Redis is down', async () => {
  expect(await searchForPage({ redis, queueSuffix: '-web-test' }, { q: 'harbour' })).toEqual({ query: 'harbour', total: 0, results: [] });
  // Only Redis being out of reach is 'unavailable'; anything else is thrown.
  await expect(searchForPage({ redis, queueSuffix: '-web-test' }, { q: 'x', limit: 0 })).rejects.toThrow(/too small/i);

  await server.stop();
  expect(await searchForPage({ redis, queueSuffix: '-web-test' }, { q: 'harbour' })).toBe('unavailable');
  // A new connection that never gets its handshake gives up waiting the same way.
  const never = createRedis(server.url, { role: 'producer', onError: () => {} });
  try {
    expect(await searchForPage({ redis: never, queueSuffix: '-web-test' }, { q: 'harbour' })).toBe('unavailable');
  } finally {
    never.disconnect();
  }
});
