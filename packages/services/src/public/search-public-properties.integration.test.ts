import { randomBytes } from 'node:crypto';
import type { PublicSearchResult } from '@staging/contracts/public';
import { Prisma, queryRows } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';
import { writePublicSearchDocuments } from '../search/public-search-documents';
import { openTestDb } from '../staging/testing/staging-test-kit';
import { getPublicProperty } from './get-public-property';
import { searchPublicProperties } from './search-public-properties';

let db: Db;
let ownerAgentId: string;

beforeAll(async () => {
  db = openTestDb();
  ownerAgentId = (await createUser(db)).id;
});

afterAll(async () => {
  await db.$disconnect();
});

/** A word no other test's listing holds, so each test sees its own listings only. */
const uniqueWord = () => `w${randomBytes(5).toString('hex')}`;

/** A public listing with its search document written, as the worker writes it after a change. */
async function listing(title: string, facts: { city?: string; description?: string; features?: string[] } = {}): Promise<string> {
  const property = await createProperty(db, { ownerAgentId, title, ...(facts.city === undefined ? {} : { city: facts.city }) });
  if (facts.description !== undefined || facts.features !== undefined) {
    await db.property.update({
      where: { id: property.id },
      data: { description: facts.description ?? null, features: facts.features ?? [] },
    });
  }
  await writePublicSearchDocuments(db, [property.id]);
  return property.id;
}

const search = (q: string, more: { limit?: number; city?: string } = {}) => searchPublicProperties({ db }, { q, ...more });
const idsOf = async (q: string, more: { limit?: number; city?: string } = {}) => (await search(q, more)).results.map((hit) => hit.id);

describe('public search: which listings match', () => {
  it('folds accents and case on both sides', async () => {
    const word = uniqueWord();
    const obidos = await listing(`Óbidos cottage ${word}`, { city: 'Óbidos' });
    const lisboa = await listing(`Flat ${word}`, { city: 'LISBOA' });
    for (const q of ['obidos', 'ÓBIDOS', 'óbidos', 'Obidos']) expect(await idsOf(`${q} ${word}`)).toEqual([obidos]);
    for (const q of ['lisboa', 'Lisboa', 'LISBOA', 'lisbóa']) expect(await idsOf(`${q} ${word}`)).toEqual([lisboa]);
  });

  it('matches a word by its beginning, in the title, city, address, description or features', async () => {
    const word = uniqueWord();
    const id = await listing(`Harbour flat ${word}`, { city: 'Setúbal', description: 'Balcony over the estuary', features: ['Dishwasher'] });
    for (const q of ['harb', 'setub', 'estuar', 'dishw', 'test street', word.slice(0, 6)]) {
      expect(await idsOf(`${q} ${word}`)).toEqual([id]);
    }
    // Only the beginnings of words: an inside part matches nothing.
    expect(await idsOf(`arbour ${word}`)).toEqual([]);
  });

  it('requires every word of the query', async () => {
    const word = uniqueWord();
    const sunny = await listing(`Sunny loft ${word}`);
    await listing(`Quiet loft ${word}`);
    expect(await idsOf(`sunny loft ${word}`)).toEqual([sunny]);
    expect(await idsOf(`sunny house ${word}`)).toEqual([]);
  });

  it('filters by city, accents and case ignored, with or without words', async () => {
    const word = uniqueWord();
    const city = `Évora ${word}`;
    const inCity = await listing(`Farmhouse ${word}`, { city });
    await listing(`Farmhouse ${word}`, { city: `Beja ${word}` });
    expect(await idsOf(`farmhouse ${word}`, { city: `EVORA ${word}` })).toEqual([inCity]);
    expect(await idsOf('', { city: ` évora ${word} ` })).toEqual([inCity]);
    expect(await idsOf(word, { city: 'Évora' })).toEqual([]);
  });

  it('never finds a deleted listing, nor shows an image the public page does not', async () => {
    const word = uniqueWord();
    const gone = await listing(`Gone ${word}`);
    const kept = await listing(`Kept ${word}`);
    const original = await createOriginalImage(db, { propertyId: kept });
    const approved = await createStagedImage(db, { original, reviewStatus: 'APPROVED', reviewedByUserId: ownerAgentId });
    await createStagedImage(db, { original, canonicalStyle: 'SCANDINAVIAN' });
    await createOriginalImage(db, { propertyId: kept, isPublic: false, displayOrder: 5 });
    await db.property.delete({ where: { id: gone } });
    await writePublicSearchDocuments(db, [gone, kept]);

    const { results } = await search(word);
    expect(results.map((hit) => hit.id)).toEqual([kept]);
    // Exactly the public page's images (one visibility rule): the original and its approved variant.
    expect(results[0]!.images).toEqual((await getPublicProperty(db, kept)).images);
    expect(results[0]!.images.map((image) => image.id)).toEqual([original.id, approved.id]);
    expect(results[0]!.coverImage?.id).toBe(original.id);
  });

  it('answers a rebuilt document, not what the last search saw', async () => {
    const word = uniqueWord();
    const id = await listing(`Rebuilt ${word}`);
    expect((await search(word)).results[0]!.images).toEqual([]);
    const photo = await createOriginalImage(db, { propertyId: id });
    await writePublicSearchDocuments(db, [id]);
    expect((await search(word)).results[0]!.images.map((image) => image.id)).toEqual([photo.id]);
  });
});

describe('public search: order, count and hostile input', () => {
  it('orders hits by title then id and pages by limit', async () => {
    const word = uniqueWord();
    const b = await listing(`B ${word}`);
    const a = await listing(`A ${word}`);
    const twins = [await listing(`C ${word}`), await listing(`C ${word}`)].sort();
    expect(await idsOf(word)).toEqual([a, b, ...twins]);
    const firstTwo = await search(word, { limit: 2 });
    expect(firstTwo.results.map((hit) => hit.id)).toEqual([a, b]);
    expect(firstTwo).toMatchObject({ query: word, total: 4, totalIsLowerBound: false });
  });

  it('counts matches up to the cap, says when there are more, and pages in title order either way', async () => {
    const word = uniqueWord();
    const over = PUBLIC_SEARCH_LIMITS.totalCap + 1;
    const [{ ids } = { ids: [] }] = await queryRows<{ ids: string[] }>(
      db,
      Prisma.sql`
        WITH created AS (
          INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city", "bedrooms", "bathrooms", "updatedAt")
          SELECT ${word} || '-' || n, ${ownerAgentId}, 'Many ' || ${word} || ' ' || lpad((${over} - n)::text, 5, '0'), n || ' Rua', 'Faro', 1, 1, now()
          FROM generate_series(1, ${over}) n
          RETURNING "id")
        SELECT array_agg("id") AS "ids" FROM created`,
    );
    await writePublicSearchDocuments(db, ids);
    // Past the cap the page is in title order among the matches counted; at the cap, of all.
    const titlesOf = (result: PublicSearchResult) => result.results.map((hit) => hit.title);
    const many = await search(word, { limit: 3 });
    expect(many).toMatchObject({ total: PUBLIC_SEARCH_LIMITS.totalCap, totalIsLowerBound: true });
    expect(titlesOf(many)).toHaveLength(3);
    expect(titlesOf(many)).toEqual([...titlesOf(many)].sort());
    await db.property.delete({ where: { id: `${word}-1` } });
    const capped = await search(word, { limit: 3 });
    expect(capped).toMatchObject({ total: PUBLIC_SEARCH_LIMITS.totalCap, totalIsLowerBound: false });
    expect(titlesOf(capped)).toEqual([0, 1, 2].map((k) => `Many ${word} ${String(k).padStart(5, '0')}`));
  });

  it('reads a prefix of several words across their lists, each listing once and in title order', async () => {
    const word = uniqueWord();
    const both = await listing(`B ${word}sunny ${word}sunset`);
    const sunny = await listing(`C ${word}sunny`);
    const sunset = await listing(`A ${word}sunset`);
    expect(await search(word)).toMatchObject({ total: 3, totalIsLowerBound: false });
    expect(await idsOf(word)).toEqual([sunset, both, sunny]);
    // More words than the lists are read for: every one still found, in title order.
    const many = [];
    for (let k = 0; k < 40; k += 1) many.push(await listing(`D ${String(k).padStart(2, '0')} ${word}many${k.toString(36)}`));
    expect(await idsOf(`${word}many`, { limit: 50 })).toEqual(many);
  });

  it('follows a listing renamed or moved to another city', async () => {
    const word = uniqueWord();
    const first = await listing(`A ${word}`, { city: 'Faro' });
    const second = await listing(`B ${word}`, { city: 'Faro' });
    await db.property.update({ where: { id: first }, data: { title: `C ${word}`, city: 'Braga' } });
    await writePublicSearchDocuments(db, [first]);
    expect(await idsOf(word)).toEqual([second, first]);
    expect(await idsOf(word, { city: 'Faro' })).toEqual([second]);
    expect(await idsOf(word, { city: 'Braga' })).toEqual([first]);
  });

  it('a common word read in title order: a lower-bound count past what was read, and rare companions still found', async () => {
    // More listings hold the driving word than one walk of its list reads (5,000), and a companion
    // word is held early in title order, once far past the walk, and once only there.
    const common = `${uniqueWord()}common`;
    const early = `r${randomBytes(3).toString('hex')}`;
    const onlyLate = `s${randomBytes(3).toString('hex')}`;
    const count = 6_000;
    const [{ ids } = { ids: [] }] = await queryRows<{ ids: string[] }>(
      db,
      Prisma.sql`
        WITH created AS (
          INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city", "description", "bedrooms", "bathrooms", "updatedAt")
          SELECT ${common} || '-' || n, ${ownerAgentId}, ${common} || ' ' || lpad(n::text, 5, '0'), n || ' Rua', 'Faro',
            CASE WHEN n <= 30 OR n = ${count - 1} THEN ${early} WHEN n = ${count} THEN ${onlyLate} END, 1, 1, now()
          FROM generate_series(1, ${count}) n
          RETURNING "id")
        SELECT array_agg("id") AS "ids" FROM created`,
    );
    await writePublicSearchDocuments(db, ids);
    // The page is exact; the count stops where the walk did, and says so.
    const companion = await search(`${common} ${early}`, { limit: 5 });
    expect(companion.results.map((hit) => hit.id)).toEqual([1, 2, 3, 4, 5].map((n) => `${common}-${n}`));
    expect(companion).toMatchObject({ total: 30, totalIsLowerBound: true });
    // A companion only past the walk is found all the same.
    expect(await idsOf(`${common} ${onlyLate}`)).toEqual([`${common}-${count}`]);
    // The common word alone: the first page in title order, counted to the cap.
    const alone = await search(common, { limit: 2 });
    expect(alone.results.map((hit) => hit.id)).toEqual([`${common}-1`, `${common}-2`]);
    expect(alone).toMatchObject({ total: PUBLIC_SEARCH_LIMITS.totalCap, totalIsLowerBound: true });
  });

  it('reads operators, quotes and very long words as text, never as SQL or tsquery syntax', async () => {
    const word = uniqueWord();
    const id = await listing(`O'Brien's loft ${word}`);
    for (const q of [`&|!:*()'\\`, `'); DROP TABLE "properties"; --`, '<-> !!! ::', 'x'.repeat(PUBLIC_SEARCH_LIMITS.queryMaxLength), '½ ©']) {
      await expect(search(q)).resolves.toMatchObject({ query: q });
    }
    expect(await idsOf(`o'brien's ${word}`)).toEqual([id]);
    expect(await idsOf(`${word}:* | !loft`)).toEqual([id]);
    await expect(search('', { city: `'&|!\\${'é'.repeat(PUBLIC_SEARCH_LIMITS.cityMaxLength - 5)}` })).resolves.toMatchObject({ total: 0 });
  });
});
