import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PUBLIC_SEARCH_LIMITS } from '@staging/services/public/search-public-properties';
import type { PublicSearchResult } from '@staging/services/public/search-public-properties';
import { AlertMessage } from '@/components/alert-message';
import { getWebDeps } from '@/server/deps';
import { searchForPage } from '@/server/public-search';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('search'))('title') };
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Anonymous search over the search documents; a plain GET form, so it works without JavaScript. */
export default async function SearchPage({ searchParams }: PageProps<'/search'>) {
  const q = first((await searchParams).q).slice(0, PUBLIC_SEARCH_LIMITS.queryMaxLength);
  const t = await getTranslations('search');
  const { redis, config } = getWebDeps();
  const result = await searchForPage({ redis, queueSuffix: config.queueSuffix }, { q });
  return (
    <>
      <h1>{t('title')}</h1>
      <form method="get" action="/search" role="search" className="toolbar" aria-label={t('formLabel')}>
        <div className="field" style={{ flex: '1 1 260px' }}>
          <label htmlFor="search-q">{t('queryLabel')}</label>
          <input id="search-q" name="q" type="search" defaultValue={q} maxLength={PUBLIC_SEARCH_LIMITS.queryMaxLength} />
        </div>
        <button type="submit" className="button button-primary">
          {t('submit')}
        </button>
      </form>
      {result === 'unavailable' ? (
        <AlertMessage message={t('unavailable')} tone="page" />
      ) : (
        <SearchResults result={result} />
      )}
    </>
  );
}

async function SearchResults({ result }: { result: PublicSearchResult }) {
  const t = await getTranslations('search');
  return (
    <>
      <p role="status" className="muted">
        {result.total === 0 ? t('noMatch') : t('found', { count: result.total })}
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
