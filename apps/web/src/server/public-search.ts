import { isRedisUnavailable, waitForRedis } from '@staging/platform/queues';
import { searchPublicProperties } from '@staging/services/public/search-public-properties';
import type { PublicSearchResult, TPublicSearchInput } from '@staging/services/public/search-public-properties';

/**
 * How long a search waits for the web's Redis connection to become ready. The producer connection
 * refuses commands until its first handshake, which takes milliseconds after a start; while Redis
 * is down it never comes, and a visitor should hear so within a second, not after five.
 */
const READY_WAIT_MS = 1_000;

/**
 * Public search for the search page: its result, or 'unavailable' while Redis cannot serve (down,
 * restarting), so the page can say so and keep its form instead of failing as a whole. Any other
 * failure is thrown.
 */
export async function searchForPage(
  deps: Parameters<typeof searchPublicProperties>[0],
  input: TPublicSearchInput,
): Promise<PublicSearchResult | 'unavailable'> {
  try {
    await waitForRedis(deps.redis, READY_WAIT_MS);
    return await searchPublicProperties(deps, input);
  } catch (error) {
    if (!isRedisUnavailable(error)) throw error;
    return 'unavailable';
  }
}
