import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { freePort } from '@staging/stack/free-port';
import { searchForPage } from './public-search';

let db: Db;

beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!);
});

afterAll(async () => {
  await db.$disconnect();
});

it('answers the search, fails on a bad input, and says unavailable while the database cannot be reached', async () => {
  expect(await searchForPage({ db }, { q: 'zz-no-such-listing-word' })).toEqual({ query: 'zz-no-such-listing-word', total: 0, totalIsLowerBound: false, results: [] });
  // Only the database being out of reach is 'unavailable'; anything else is thrown.
  await expect(searchForPage({ db }, { q: 'x', limit: 0 })).rejects.toThrow(/too small/i);

  // A port nobody listens on: the connection is refused, as while Postgres restarts.
  const unreachable = createDb(`postgresql://postgres@127.0.0.1:${await freePort()}/nowhere`);
  try {
    expect(await searchForPage({ db: unreachable }, { q: 'harbour' })).toBe('unavailable');
  } finally {
    await unreachable.$disconnect();
  }
});
