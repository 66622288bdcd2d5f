import { ZPublicSearchInput } from '@staging/contracts/public';
import type { PublicSearchHit, PublicSearchResult, TPublicSearchInput } from '@staging/contracts/public';
import { Prisma, queryRows } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { PUBLIC_SEARCH_LIMITS, searchWordsOf } from '@staging/domain/public-search';
import { toPublicImages } from './public-images';
import type { PublicImageRow } from './public-images';

// Kept in the domain so the web's proxy can bound a query without loading this module.
export { PUBLIC_SEARCH_LIMITS };

interface DocumentRow {
  propertyId: string;
  title: string;
  city: string;
  address: string;
  bedrooms: number;
  bathrooms: number;
  images: PublicImageRow[];
}

/**
 * Every word as a prefix term, all required (public_search_query quotes each folded word, so
 * whatever a visitor types is matched as text, never read as tsquery syntax); null when nothing
 * narrows the search.
 */
function matchCondition(words: readonly string[], city: string | undefined): Prisma.Sql | null {
  const conditions: Prisma.Sql[] = [];
  if (words.length > 0) conditions.push(Prisma.sql`d."searchVector" @@ public_search_query(${words}::text[])`);
  if (city !== undefined) conditions.push(Prisma.sql`d."cityKey" = public_search_fold(${city})`);
  return conditions.length === 0 ? null : Prisma.join(conditions, ' AND ');
}

const HIT_COLUMNS = Prisma.sql`d."propertyId", d."title", d."city", d."address", d."bedrooms", d."bathrooms", d."images"`;

/**
 * One page of hits in title order. With a condition, the matches are taken from its indexes first
 * and only then sorted: left to choose, the planner walks the title index and filters, hoping to
 * meet 20 matches early, which reads most of the table when the matching titles sort late or
 * nothing matches (250-320 ms at 100k listings, docs/decisions/public-pages.md). Only as many
 * matches as the count reports are sorted: past that the answer says there are more
 * (totalIsLowerBound), and the page is the title order of those, so its cost stays flat however
 * many listings a common word matches.
 */
function pageStatement(condition: Prisma.Sql | null, limit: number): Prisma.Sql {
  if (condition === null) {
    return Prisma.sql`SELECT ${HIT_COLUMNS} FROM "public_search_documents" d ORDER BY d."title", d."propertyId" LIMIT ${limit}`;
  }
  return Prisma.sql`
    WITH m AS MATERIALIZED (SELECT d."propertyId", d."title" FROM "public_search_documents" d WHERE ${condition} LIMIT ${PUBLIC_SEARCH_LIMITS.totalCap + 1})
    SELECT ${HIT_COLUMNS}
    FROM (SELECT * FROM m ORDER BY m."title", m."propertyId" LIMIT ${limit}) p
    JOIN "public_search_documents" d ON d."propertyId" = p."propertyId"
    ORDER BY p."title", p."propertyId"`;
}

/** How many entries of one word's list a search reads at most before it asks the GIN index. */
const WORD_WALK_ROWS = 5_000;
/** How many distinct words one query word may begin before the search asks the GIN index. */
const PREFIX_WORDS_MAX = 32;

interface WalkRow {
  pageIds: string[] | null;
  matches: number;
  /** Every word's list was read to its end or to the count's cap: `matches` is the count. */
  counted: boolean;
  /** Every word's list gave its first `limit` matches or ended: the page is the title order of all. */
  pageExact: boolean;
}

/**
 * The words of the listings that `drive` begins, in byte order, one index probe each (a loose
 * index scan): at most PREFIX_WORDS_MAX + 1, so that more than the walk reads can be told.
 */
function begunWordsStatement(drive: string): Prisma.Sql {
  const prefix = Prisma.sql`public_search_fold(${drive})`;
  return Prisma.sql`
    WITH RECURSIVE words(word, n) AS (
      (SELECT x."word", 1 FROM "public_search_words" x WHERE x."word" >= ${prefix} ORDER BY x."word" LIMIT 1)
      UNION ALL
      SELECT (SELECT x."word" FROM "public_search_words" x WHERE x."word" > w.word ORDER BY x."word" LIMIT 1), w.n + 1
      FROM words w WHERE w.n <= ${PREFIX_WORDS_MAX} AND starts_with(w.word, ${prefix})
    )
    SELECT word FROM words WHERE starts_with(word, ${prefix}) ORDER BY n`;
}

/**
 * A page and a capped count read from the front of each word's list in public_search_words, in
 * title order, walked up to WORD_WALK_ROWS entries and kept when the listing holds the other
 * query words and lies in the city. Each word is a constant of the statement, so the planner
 * knows how many listings hold it and walks its index in order rather than sorting them all. Its
 * cost follows the page and the cap, not how many listings hold the word; the GIN path answers
 * whatever this walk cannot (`pageExact` false: a rare combination with a common word).
 */
function wordWalkStatement(words: readonly string[], rest: readonly string[], city: string | undefined, limit: number): Prisma.Sql {
  const want = PUBLIC_SEARCH_LIMITS.totalCap + 1;
  const inCity = city === undefined ? Prisma.empty : Prisma.sql`AND x."cityKey" = public_search_fold(${city})`;
  const holdsRest =
    rest.length === 0
      ? Prisma.empty
      : Prisma.sql`JOIN "public_search_documents" d ON d."propertyId" = c."propertyId" AND d."searchVector" @@ public_search_query(${rest}::text[])`;
  const walks = words.map(
    (word, k) => Prisma.sql`(
      SELECT ${k}::int AS k, c."propertyId", c."title" FROM (
        SELECT x."propertyId", x."title" FROM "public_search_words" x
        WHERE x."word" = ${word} ${inCity}
        ORDER BY x."title", x."propertyId" LIMIT ${WORD_WALK_ROWS}) c
      ${holdsRest}
      ORDER BY c."title", c."propertyId" LIMIT ${want})`,
  );
  // A list ended when the walk met the cap or read all of it; its length is only read otherwise.
  const lists = words.map(
    (word, k) => Prisma.sql`
      SELECT f.found, CASE WHEN f.found >= ${want} THEN TRUE ELSE (
        SELECT count(*) FROM (SELECT 1 FROM "public_search_words" x WHERE x."word" = ${word} ${inCity} LIMIT ${WORD_WALK_ROWS}) z
      ) < ${WORD_WALK_ROWS} END AS ended
      FROM (SELECT count(*) AS found FROM matched WHERE k = ${k}::int) f`,
  );
  return Prisma.sql`
    WITH matched AS (${Prisma.join(walks, ' UNION ALL ')}),
    lists AS (${Prisma.join(lists, ' UNION ALL ')}),
    page AS (SELECT DISTINCT "propertyId", "title" FROM matched ORDER BY "title", "propertyId" LIMIT ${limit})
    SELECT
      (SELECT array_agg("propertyId" ORDER BY "title", "propertyId") FROM page) AS "pageIds",
      (SELECT count(DISTINCT "propertyId")::int FROM matched) AS "matches",
      (SELECT bool_and(ended) FROM lists) AS "counted",
      (SELECT bool_and(found >= ${limit} OR ended) FROM lists) AS "pageExact"`;
}

/** The longest query word: most likely the one fewest listings hold, so the walk is short. */
function drivingWord(words: readonly string[]): { drive: string; rest: string[] } {
  const drive = words.reduce((longest, word) => (word.length > longest.length ? word : longest));
  return { drive, rest: words.filter((word) => word !== drive) };
}

/**
 * Anonymous search over public_search_documents (docs/decisions/public-pages.md "Public search on
 * PostgreSQL full-text search"): every query word must begin a word of the listing (accents and
 * case ignored); hits are ordered by title then id.
 */
export async function searchPublicProperties(deps: { db: Db }, input: TPublicSearchInput): Promise<PublicSearchResult> {
  const { q, limit, city: cityAsTyped } = ZPublicSearchInput.parse(input);
  const words = searchWordsOf(q);
  const city = cityAsTyped === undefined || cityAsTyped.trim() === '' ? undefined : cityAsTyped.trim();
  const walked = words.length === 0 ? undefined : await walkWordLists(deps.db, words, city, limit);
  const { rows, matches, counted } = walked ?? (await searchOnGinIndex(deps.db, matchCondition(words, city), limit));
  const results: PublicSearchHit[] = rows.map((row) => {
    const images = toPublicImages(row.images);
    return {
      id: row.propertyId,
      title: row.title,
      city: row.city,
      address: row.address,
      bedrooms: row.bedrooms,
      bathrooms: row.bathrooms,
      coverImage: images.find((image) => image.isCover) ?? null,
      images,
    };
  });
  return {
    query: q,
    total: Math.min(matches, PUBLIC_SEARCH_LIMITS.totalCap),
    totalIsLowerBound: matches > PUBLIC_SEARCH_LIMITS.totalCap || !counted,
    results,
  };
}

interface SearchAnswer {
  rows: DocumentRow[];
  matches: number;
  /** False when `matches` stopped short of the cap without reading every match: a lower bound. */
  counted: boolean;
}

/** The word lists' answer, or undefined when they cannot tell the page (the GIN index then can). */
async function walkWordLists(db: Db, words: readonly string[], city: string | undefined, limit: number): Promise<SearchAnswer | undefined> {
  const { drive, rest } = drivingWord(words);
  const begun = (await queryRows<{ word: string }>(db, begunWordsStatement(drive))).map((row) => row.word);
  if (begun.length > PREFIX_WORDS_MAX) return undefined;
  if (begun.length === 0) return { rows: [], matches: 0, counted: true };
  const [walk] = await queryRows<WalkRow>(db, wordWalkStatement(begun, rest, city, limit));
  if (walk === undefined || !walk.pageExact) return undefined;
  const ids = walk.pageIds ?? [];
  const rows =
    ids.length === 0
      ? []
      : await queryRows<DocumentRow>(
          db,
          Prisma.sql`SELECT ${HIT_COLUMNS} FROM "public_search_documents" d WHERE d."propertyId" = ANY(${ids}::text[]) ORDER BY d."title", d."propertyId"`,
        );
  return { rows, matches: walk.matches, counted: walk.counted };
}

async function searchOnGinIndex(db: Db, condition: Prisma.Sql | null, limit: number): Promise<SearchAnswer> {
  const [rows, [counted]] = await Promise.all([
    queryRows<DocumentRow>(db, pageStatement(condition, limit)),
    queryRows<{ matches: number }>(
      db,
      Prisma.sql`
        SELECT count(*)::int AS "matches" FROM (
          SELECT 1 FROM "public_search_documents" d WHERE ${condition ?? Prisma.sql`TRUE`}
          LIMIT ${PUBLIC_SEARCH_LIMITS.totalCap + 1}) m`,
    ),
  ]);
  return { rows, matches: counted?.matches ?? 0, counted: true };
}
