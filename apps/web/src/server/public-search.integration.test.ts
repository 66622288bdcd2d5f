import { createDb } from '@staging/db/client';
import { unreachableDatabaseUrl } from '@staging/db/testing/broken-database-urls';
import { env } from '@staging/trpc/testing/test-server';
import { searchForPage } from './public-search';

const db = createDb(env('DATABASE_URL'), { maxConnections: 2 });
// A database that is down: every connection is refused.
const downDb = createDb(unreachableDatabaseUrl(env('DATABASE_URL')), { maxConnections: 1 });

afterAll(async () => {
  await Promise.all([db.$disconnect(), downDb.$disconnect()]);
});

it('answers the search, fails on a bad input, and says unavailable while the database is down', async () => {
  expect(await searchForPage({ db }, { q: `nowhere${Date.now()}` })).toMatchObject({ total: 0, totalIsLowerBound: false, results: [] });
  // Only the database being out of reach is 'unavailable'; anything else is thrown.
  await expect(searchForPage({ db }, { q: 'x', limit: 0 })).rejects.toThrow(/too small/i);

  expect(await searchForPage({ db: downDb }, { q: 'harbour' })).toBe('unavailable');
});
