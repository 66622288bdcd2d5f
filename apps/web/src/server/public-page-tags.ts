/**
 * Cache tags of the public pages (docs/decisions/public-pages.md "Public pages a CDN can keep"): each cached
 * read carries one, and so does every page built from it; revalidating a tag expires both, in
 * every language.
 */

/** Every search page, whatever its language and query: a change to any listing may show in one. */
export const PUBLIC_SEARCH_TAG = 'public-search';

/** The listing page of one property. */
export function publicListingTag(propertyId: string): string {
  return `public-listing:${propertyId}`;
}
