import type { Redis } from 'ioredis';

/**
 * Deletes every key matching `pattern` with SCAN (never KEYS, never FLUSHALL: tests, stacks and
 * benchmarks share one Redis, so the pattern always names their own suffix). Returns how many.
 */
export async function deleteKeysMatching(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
