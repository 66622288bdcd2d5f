import 'server-only';
import { unstable_cache } from 'next/cache';
import { notFound } from 'next/navigation';
import { setRequestLocale } from 'next-intl/server';
import type { PublicPropertyDto, PublicSearchResult } from '@staging/contracts/public';
import { isLocale, type Locale } from '@staging/domain/locale';
import { getPublicProperty } from '@staging/services/public/get-public-property';
import { getWebDeps } from '@/server/deps';
import { PUBLIC_SEARCH_TAG, publicListingTag } from '@/server/public-page-tags';
import { searchForPage } from '@/server/public-search';

// The public pages' data as Next.js caches it, tagged (public-page-tags) so that a change expires
// the data and the pages built from it together.

/**
 * How long the origin keeps a public page that no change event expired: the backstop for an event
 * that never arrived. The pages export the same number as `revalidate`, which Next.js reads only
 * as a literal.
 */
export const PUBLIC_PAGE_REVALIDATE_SECONDS = 60;

/** The language of an internal public route, pinned for next-intl so nothing reads the request. */
export function pinLocale(value: string): Locale {
  if (!isLocale(value)) notFound();
  setRequestLocale(value);
  return value;
}

/** The listing as anonymous visitors see it; AppError NOT_FOUND is thrown (and never cached). */
export function cachedPublicProperty(propertyId: string): Promise<PublicPropertyDto> {
  return unstable_cache(() => getPublicProperty(getWebDeps().db, propertyId), ['public-property', propertyId], {
    tags: [publicListingTag(propertyId)],
    revalidate: PUBLIC_PAGE_REVALIDATE_SECONDS,
  })();
}

/** Search could not be served (database unreachable); thrown so that the answer is never cached. */
export class SearchUnavailableError extends Error {
  override name = 'SearchUnavailableError';
}

/** A public search's first page of results. */
export function cachedPublicSearch(q: string): Promise<PublicSearchResult> {
  return unstable_cache(
    async () => {
      const result = await searchForPage({ db: getWebDeps().db }, { q });
      if (result === 'unavailable') throw new SearchUnavailableError('search is unavailable');
      return result;
    },
    ['public-search', q],
    { tags: [PUBLIC_SEARCH_TAG], revalidate: PUBLIC_PAGE_REVALIDATE_SECONDS },
  )();
}
