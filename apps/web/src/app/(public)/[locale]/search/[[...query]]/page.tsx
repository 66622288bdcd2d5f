import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import type { PublicSearchResult } from '@staging/contracts/public';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';
import { SearchForm } from '@/components/search-form';
import { decodeSearchQuery } from '@/lib/public-page-paths';
import { cachedPublicSearch, pinLocale } from '@/server/public-pages';

// Rendered on the first search for a query in each language, then served from Next.js's cache
// until a listing changes (PUBLIC_SEARCH_TAG) or, should that event be lost, for at most this long
// (PUBLIC_PAGE_REVALIDATE_SECONDS).
export const revalidate = 60;

// The proxy puts the query in the path (public-page-paths), so a search reads no search params.
export function generateStaticParams(): { locale: string; query?: string[] }[] {
  return [];
}

export async function generateMetadata({ params }: PageProps<'/[locale]/search/[[...query]]'>): Promise<Metadata> {
  const locale = pinLocale((await params).locale);
  return { title: (await getTranslations({ locale, namespace: 'search' }))('title') };
}

function queryOf(segments: string[] | undefined): string {
  if (segments === undefined || segments.length === 0) return '';
  const q = segments.length === 1 && segments[0] !== undefined ? decodeSearchQuery(segments[0]) : null;
  if (q === null) notFound();
  return q.slice(0, PUBLIC_SEARCH_LIMITS.queryMaxLength);
}

/**
 * Anonymous search over the search documents; a plain GET form, so it works without JavaScript.
 * While search is unavailable the page fails, so that no cache keeps that answer, and the
 * route's error boundary says so under the same form.
 */
export default async function SearchPage({ params }: PageProps<'/[locale]/search/[[...query]]'>) {
  const { locale, query } = await params;
  pinLocale(locale);
  const q = queryOf(query);
  const t = await getTranslations('search');
  const result = await cachedPublicSearch(q);
  return (
    <>
      <h1>{t('title')}</h1>
      <SearchForm q={q} />
      <SearchResults result={result} />
    </>
  );
}

async function SearchResults({ result }: { result: PublicSearchResult }) {
  const t = await getTranslations('search');
  return (
    <>
      <p role="status" className="muted">
        {result.total === 0 ? t('noMatch') : t(result.totalIsLowerBound ? 'foundMore' : 'found', { count: result.total })}
      </p>
      <ul className="grid" style={{ listStyle: 'none', padding: 0 }} aria-label={t('results')}>
        {result.results.map((hit) => (
          <li key={hit.id} className="card photo-card">
            <div className="photo-frame">
              {hit.coverImage !== null && (
                // Served by the proxied public image route; only originals can be covers.
                <img src={hit.coverImage.url} alt={t('coverAlt', { title: hit.title })} loading="lazy" />
              )}
            </div>
            <h2 style={{ fontSize: '1.1rem' }}>
              <Link href={`/listings/${encodeURIComponent(hit.id)}`}>{hit.title}</Link>
            </h2>
            <p className="muted small" style={{ margin: 0 }}>
              {t('facts', { address: hit.address, city: hit.city, bedrooms: hit.bedrooms, bathrooms: hit.bathrooms })}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
