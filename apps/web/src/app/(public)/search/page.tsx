import type { Metadata } from 'next';
import Link from 'next/link';
import { searchPublicProperties, PUBLIC_SEARCH_LIMITS } from '@staging/services/public/search-public-properties';
import { getWebDeps } from '@/server/deps';

export const metadata: Metadata = { title: 'Search homes' };

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Anonymous search over the search documents; a plain GET form, so it works without JavaScript. */
export default async function SearchPage({ searchParams }: PageProps<'/search'>) {
  const q = first((await searchParams).q).slice(0, PUBLIC_SEARCH_LIMITS.queryMaxLength);
  const { redis, config } = getWebDeps();
  const result = await searchPublicProperties({ redis, queueSuffix: config.queueSuffix }, { q });
  return (
    <>
      <h1>Search homes</h1>
      <form method="get" action="/search" role="search" className="toolbar" aria-label="Search listings">
        <div className="field" style={{ flex: '1 1 260px' }}>
          <label htmlFor="search-q">City, street or keyword</label>
          <input id="search-q" name="q" type="search" defaultValue={q} maxLength={PUBLIC_SEARCH_LIMITS.queryMaxLength} />
        </div>
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
      <p role="status" className="muted">
        {result.total === 0 ? 'No listings match.' : `${result.total} listing${result.total === 1 ? '' : 's'} found.`}
      </p>
      <ul className="grid" style={{ listStyle: 'none', padding: 0 }} aria-label="Search results">
        {result.results.map((hit) => (
          <li key={hit.id} className="card photo-card">
            <div className="photo-frame">
              {hit.coverImage !== null && (
                // Served by the proxied public image route; only originals can be covers.
                <img src={hit.coverImage.url} alt={`Cover photo of ${hit.title}`} loading="lazy" />
              )}
            </div>
            <h2 style={{ fontSize: '1.1rem' }}>
              <Link href={`/listings/${encodeURIComponent(hit.id)}`}>{hit.title}</Link>
            </h2>
            <p className="muted small" style={{ margin: 0 }}>
              {hit.address}, {hit.city} · {hit.bedrooms} bd · {hit.bathrooms} ba
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
