import { LOCALES, type Locale } from '@staging/domain/locale';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';

/**
 * A public page as a visitor addresses it. Its URL names no language: the visitor's own is used
 * (docs/decisions/public-pages.md "Public pages a CDN can keep"), so the proxy rewrites it to an
 * internal route that names the language and the query in its path, which is what Next.js caches
 * by.
 */
export type PublicPage = { kind: 'listing'; propertyId: string } | { kind: 'search'; q: string };

const LISTING_PATH = /^\/listings\/([^/]+)$/;
const INTERNAL_PATH = new RegExp(`^/(?:${LOCALES.join('|')})/(?:listings/[^/]+|search(?:/[^/]+)?)$`);

/** The public page a visitor's URL names, or null for every other page. */
export function publicPageOf(url: URL): PublicPage | null {
  if (url.pathname === '/search') return { kind: 'search', q: (url.searchParams.get('q') ?? '').slice(0, PUBLIC_SEARCH_LIMITS.queryMaxLength) };
  const listing = LISTING_PATH.exec(url.pathname);
  return listing?.[1] === undefined ? null : { kind: 'listing', propertyId: listing[1] };
}

/** The internal route that renders `page` in `locale`. */
export function internalPathOf(page: PublicPage, locale: Locale): string {
  if (page.kind === 'listing') return `/${locale}/listings/${page.propertyId}`;
  return page.q === '' ? `/${locale}/search` : `/${locale}/search/${encodeSearchQuery(page.q)}`;
}

/** True for an internal route's own address (a language first), which is served as it is. */
export function isInternalPublicPath(pathname: string): boolean {
  return INTERNAL_PATH.test(pathname);
}

/**
 * The visitor's URL of the page that the layout segments below [locale] name, e.g.
 * ['search', <encoded query>] → /search?q=…; what the language switcher comes back to.
 */
export function visitorPathOf(segments: readonly string[]): string {
  const [first, query] = segments;
  if (first !== 'search') return `/${segments.join('/')}`;
  const q = query === undefined ? '' : (decodeSearchQuery(query) ?? '');
  return q === '' ? '/search' : `/search?${new URLSearchParams({ q }).toString()}`;
}

// A query goes into one path segment as base64url of its UTF-8 bytes: no character of it can be
// read as a separator, and no URL decoding on the way can change it.
export function encodeSearchQuery(q: string): string {
  const binary = String.fromCharCode(...new TextEncoder().encode(q));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The query of an encoded path segment, or null when the segment is not one encodeSearchQuery made. */
export function decodeSearchQuery(segment: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return null;
  try {
    const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
    const q = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    return encodeSearchQuery(q) === segment ? q : null;
  } catch {
    return null;
  }
}
