import type { PublicSearchResult, TPublicSearchInput } from '@staging/contracts/public';
import { isDatabaseUnavailable } from '@staging/db/client';
import { searchPublicProperties } from '@staging/services/public/search-public-properties';

/**
 * Public search for the search page: its result, or 'unavailable' while the database cannot
 * serve (down, restarting), so the page can say so and keep its form instead of failing as a
 * whole. Any other failure is thrown.
 */
export async function searchForPage(
  deps: Parameters<typeof searchPublicProperties>[0],
  input: TPublicSearchInput,
): Promise<PublicSearchResult | 'unavailable'> {
  try {
    return await searchPublicProperties(deps, input);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return 'unavailable';
  }
}
