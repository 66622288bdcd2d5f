import { randomBytes } from 'node:crypto';
import { Prisma } from '@staging/db/client';
import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';
import { useStagingTestContext } from '../staging/testing/staging-test-kit';
import { searchPublicProperties } from './search-public-properties';

// Its own database: the search reads every listing, and other files' listings must not be hits.
const ctx = useStagingTestContext({ ownDatabase: true });

/** A word no other listing of the test holds, so each test's hits are its own. */
function uniqueWord(): string {
  return `zq${randomBytes(5).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
}

async function listing(title: string, city = 'Lisboa') {
  const owner = await createUser(ctx.db);
  return createProperty(ctx.db, { ownerAgentId: owner.id, title, city });
}

const search = (q: string, extra: { city?: string; limit?: number } = {}) => searchPublicProperties({ db: ctx.db }, { q, ...extra });
const idsOf = async (q: string, extra: { city?: string; limit?: number } = {}) => (await search(q, extra)).results.map((hit) => hit.id);

describe('public search on the database', () => {
  it('folds case and accents alike in the query and the listing', async () => {
    const word = uniqueWord();
    const property = await listing(`Casa em Óbidos ${word}`, 'Óbidos');
    for (const q of [`obidos ${word}`, `ÓBIDOS ${word}`, `Óbidos ${word.toUpperCase()}`, `ｏｂｉｄｏｓ ${word}`]) expect(await idsOf(q)).toEqual([property.id]);
  });

  it('needs every word; finds part of a word of three letters or more, and a shorter one at the start of a word', async () => {
    const word = uniqueWord();
    const property = await listing(`Harbour loft ${word}`, 'Porto');
    expect(await idsOf(`harbour porto ${word}`)).toEqual([property.id]);
    expect(await idsOf(`arbo ${word}`)).toEqual([property.id]);
    expect(await idsOf(`ha ${word}`)).toEqual([property.id]);
    expect(await idsOf(`ar ${word}`)).toEqual([]);
    expect(await idsOf(`harbour lisboa ${word}`)).toEqual([]);
  });

  it('filters by city as it filters words, and orders by title then id', async () => {
    const word = uniqueWord();
    const [b, a, elsewhere] = [await listing(`B flat ${word}`, 'São Paulo'), await listing(`A flat ${word}`, 'SAO PAULO'), await listing(`C flat ${word}`, 'Braga')];
    expect(await idsOf(word)).toEqual([a.id, b.id, elsewhere.id]);
    expect(await idsOf(word, { city: 'sao paulo' })).toEqual([a.id, b.id]);
    expect(await idsOf(word, { limit: 1 })).toEqual([a.id]);
    expect(await search(word, { limit: 1 })).toMatchObject({ total: 3, totalIsLowerBound: false });
  });

  it('counts matches up to a bound and says when there are more', async () => {
    const word = uniqueWord();
    const owner = await createUser(ctx.db);
    const count = PUBLIC_SEARCH_LIMITS.totalCountLimit + 1;
    await ctx.db.$executeRaw`
      INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city", "updatedAt")
      SELECT ${word} || '-' || n, ${owner.id}, 'Listing ' || ${word} || ' ' || n, n || ' Rua', 'Faro', now() FROM generate_series(1, ${count}) n`;
    expect(await search(word, { limit: 2 })).toMatchObject({ total: PUBLIC_SEARCH_LIMITS.totalCountLimit, totalIsLowerBound: true });
  });

  it('reads any query as words: operators, quotes, wildcards and long words are only text', async () => {
    const word = uniqueWord();
    const property = await listing(`Quiet studio ${word}`);
    for (const q of [`&|!:*()'\\%_ ${word}`, `${word}:* | !`, `'${word}' -- ;`, `${word} ${'w'.repeat(180)}`]) {
      const answer = await search(q);
      expect(answer.results.map((hit) => hit.id)).toEqual(q.includes('w'.repeat(180)) ? [] : [property.id]);
    }
    expect(await idsOf('%')).toEqual(await idsOf(''));
  });

  it('answers each hit with the public images only, under the listing page rule', async () => {
    const word = uniqueWord();
    const property = await listing(`Bright house ${word}`);
    const original = await createOriginalImage(ctx.db, { propertyId: property.id, isMain: true });
    await ctx.db.$executeRaw(Prisma.sql`UPDATE "property_images" SET "isPublic" = true WHERE "id" = ${original.id}`);
    await createStagedImage(ctx.db, { original, reviewStatus: 'PENDING_REVIEW' });
    const [hit] = (await search(word)).results;
    expect(hit?.images.map((image) => image.id)).toEqual([original.id]);
    expect(hit?.coverImage?.id).toBe(original.id);
  });
});
