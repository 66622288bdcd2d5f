// Cache headers of the anonymous reads: a CDN or browser may keep them for their max-age and
// revalidate with If-None-Match, which the api answers 304 while the answer is unchanged.
import { rebuildSearchDocument } from '@staging/services/search/build-search-document';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call, seedActors, seedListing } from './support/fixtures';
import type { Listing } from './support/fixtures';

let api: ApiHarness;
let listing: Listing;

beforeAll(async () => {
  api = await startApi();
  listing = await seedListing(api.db, api.storage, await seedActors(api.db), 'Cache header listing');
  await rebuildSearchDocument(api.db, api.redis, listing.propertyId, { queueSuffix: api.config.queueSuffix });
});
afterAll(async () => {
  await api.close();
  await stopS3();
});

/**
 * A revalidation as a CDN sends it. fetch adds `Cache-Control: no-cache` to a request with
 * If-None-Match unless one is given, and no-cache rightly forces a full answer.
 */
const revalidate = (etag: string) => ({ 'if-none-match': etag, 'cache-control': 'max-age=0' });

const reads = [
  { name: 'property detail', path: () => `/api/public/properties/${listing.propertyId}`, cacheControl: 'public, max-age=60' },
  { name: 'search', path: () => '/api/public/search?q=cache', cacheControl: 'public, max-age=30' },
];

describe.each(reads)('public $name', ({ path, cacheControl }) => {
  it('is cacheable and carries an ETag of its body', async () => {
    const response = await call(`${api.url}${path()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(cacheControl);
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toBeTruthy();
  });

  it('answers 304 without a body to a matching If-None-Match, 200 to a stale one', async () => {
    const etag = (await call(`${api.url}${path()}`)).headers.get('etag')!;
    const unchanged = await call(`${api.url}${path()}`, { headers: revalidate(etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(unchanged.headers.get('cache-control')).toBe(cacheControl);
    expect(await unchanged.text()).toBe('');
    const stale = await call(`${api.url}${path()}`, { headers: revalidate('"not-the-current-one"') });
    expect(stale.status).toBe(200);
  });
});

it('gives a changed listing a new ETag', async () => {
  const before = (await call(`${api.url}/api/public/properties/${listing.propertyId}`)).headers.get('etag');
  await api.db.property.update({ where: { id: listing.propertyId }, data: { title: 'Cache header listing, renamed' } });
  const after = await call(`${api.url}/api/public/properties/${listing.propertyId}`, { headers: revalidate(before!) });
  expect(after.status).toBe(200);
  expect(after.headers.get('etag')).not.toBe(before);
});
