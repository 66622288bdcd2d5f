import { Prisma, queryRows } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { PUBLIC_SEARCH_LIMITS, searchWordsOf } from '@staging/domain/public-search';
import { z } from 'zod';
import { toPublicImages, ZPublicImage } from './public-images';
import type { PublicImageRow } from './public-images';

// Kept in the domain so the web's proxy can bound a query without loading this module.
export { PUBLIC_SEARCH_LIMITS };

export const ZPublicSearchInput = z.strictObject({
  q: z.string().max(PUBLIC_SEARCH_LIMITS.queryMaxLength).default(''),
  limit: z.number().int().min(1).max(PUBLIC_SEARCH_LIMITS.maxLimit).default(PUBLIC_SEARCH_LIMITS.defaultLimit),
  /** Only listings in this city (accents and case ignored). */
  city: z.string().max(PUBLIC_SEARCH_LIMITS.cityMaxLength).optional(),
});

export type TPublicSearchInput = z.input<typeof ZPublicSearchInput>;

const ZPublicSearchHit = z.strictObject({
  id: z.string(),
  title: z.string(),
  city: z.string(),
  address: z.string(),
  bedrooms: z.number(),
  bathrooms: z.number(),
  coverImage: ZPublicImage.nullable(),
  images: z.array(ZPublicImage).readonly(),
});
type PublicSearchHit = z.infer<typeof ZPublicSearchHit>;

export const ZPublicSearchResult = z.strictObject({
  query: z.string(),
  /** Matches counted up to PUBLIC_SEARCH_LIMITS.totalCap. */
  total: z.int().nonnegative(),
  /** True when more listings match than `total` says (the count stopped at the cap). */
  totalIsLowerBound: z.boolean(),
  results: z.array(ZPublicSearchHit),
});
export type PublicSearchResult = z.infer<typeof ZPublicSearchResult>;

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
  if (city !== undefined && city.trim() !== '') conditions.push(Prisma.sql`d."cityKey" = public_search_fold(${city.trim()})`);
  return conditions.length === 0 ? null : Prisma.join(conditions, ' AND ');
}

const HIT_COLUMNS = Prisma.sql`d."propertyId", d."title", d."city", d."address", d."bedrooms", d."bathrooms", d."images"`;

/**
 * Listings read in title order before the search falls back to its indexes: twice the count cap,
 * so a catalogue that small is read whole and counted exactly, past the cap included.
 */
const TITLE_WALK_ROWS = 2 * PUBLIC_SEARCH_LIMITS.totalCap;

interface WalkRow extends Partial<DocumentRow> {
  /** Listings read in title order (fewer than TITLE_WALK_ROWS: the whole catalogue). */
  read: number;
  /** Of those, the ones that match. */
  matched: number;
}

/**
 * The first listings in title order, each with whether it matches, and the first page of those
 * that do. A word that matches a large share of the catalogue fills the page within these rows, at
 * the same cost whatever the catalogue's size; asked of the full-text index instead, it would list
 * every match (20,000 of 100,000 listings for a common word) before the first page could be cut.
 */
function titleWalkStatement(condition: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`
    WITH w AS MATERIALIZED (
      SELECT d."propertyId", d."title", (${condition}) AS "hit" FROM "public_search_documents" d
      ORDER BY d."title", d."propertyId" LIMIT ${TITLE_WALK_ROWS}),
    page AS (SELECT w."propertyId", w."title" FROM w WHERE w."hit" ORDER BY w."title", w."propertyId" LIMIT ${limit})
    SELECT s."read", s."matched", ${HIT_COLUMNS}
    FROM (SELECT count(*)::int AS "read", (count(*) FILTER (WHERE w."hit"))::int AS "matched" FROM w) s
    LEFT JOIN (page p JOIN "public_search_documents" d ON d."propertyId" = p."propertyId") ON TRUE
    ORDER BY d."title", d."propertyId"`;
}

/**
 * One page of hits in title order when the title walk did not fill it: the matches are taken from
 * the indexes first and only then sorted (left to choose, the planner walks the title index and
 * filters, which reads most of the table when the matching titles sort late or nothing matches:
 * 250-320 ms at 100k listings, docs/decisions/public-pages.md). Such a word matches fewer than a
 * page per walk, so its matches are few and cheap to list; only as many as the count reports are
 * sorted.
 */
function indexedPageStatement(condition: Prisma.Sql | null, limit: number): Prisma.Sql {
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

/** The page and the matches counted (up to the cap plus one, to tell "more"), from the indexes. */
async function searchOnIndexes(db: Db, condition: Prisma.Sql | null, limit: number): Promise<{ rows: DocumentRow[]; matches: number; lowerBound: boolean }> {
  const [rows, [counted]] = await Promise.all([
    queryRows<DocumentRow>(db, indexedPageStatement(condition, limit)),
    queryRows<{ matches: number }>(
      db,
      Prisma.sql`
        SELECT count(*)::int AS "matches" FROM (
          SELECT 1 FROM "public_search_documents" d WHERE ${condition ?? Prisma.sql`TRUE`}
          LIMIT ${PUBLIC_SEARCH_LIMITS.totalCap + 1}) m`,
    ),
  ]);
  const matches = counted?.matches ?? 0;
  return { rows, matches: Math.min(matches, PUBLIC_SEARCH_LIMITS.totalCap), lowerBound: matches > PUBLIC_SEARCH_LIMITS.totalCap };
}

/**
 * The title walk's answer when it decides the search: it read the whole catalogue (exact), or it
 * filled the page (the page is exact, and the count is what it met so far, a lower bound).
 */
async function searchByTitleWalk(db: Db, condition: Prisma.Sql, limit: number): Promise<{ rows: DocumentRow[]; matches: number; lowerBound: boolean } | null> {
  const walked = await queryRows<WalkRow>(db, titleWalkStatement(condition, limit));
  const { read = 0, matched = 0 } = walked[0] ?? {};
  const rows = walked.filter((row): row is WalkRow & DocumentRow => row.propertyId !== null && row.propertyId !== undefined);
  const whole = read < TITLE_WALK_ROWS;
  if (!whole && rows.length < limit) return null;
  return {
    rows,
    matches: Math.min(matched, PUBLIC_SEARCH_LIMITS.totalCap),
    lowerBound: whole ? matched > PUBLIC_SEARCH_LIMITS.totalCap : true,
  };
}

/**
 * Anonymous search over public_search_documents (docs/decisions/public-pages.md "Public search on
 * PostgreSQL full-text search"): every query word must begin a word of the listing (accents and
 * case ignored); hits are ordered by title then id.
 */
export async function searchPublicProperties(deps: { db: Db }, input: TPublicSearchInput): Promise<PublicSearchResult> {
  const { q, limit, city } = ZPublicSearchInput.parse(input);
  const condition = matchCondition(searchWordsOf(q), city);
  const { rows, matches, lowerBound } =
    (condition === null ? null : await searchByTitleWalk(deps.db, condition, limit)) ?? (await searchOnIndexes(deps.db, condition, limit));
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
    total: matches,
    totalIsLowerBound: lowerBound,
    results,
  };
}
