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

/**
 * Anonymous search over public_search_documents (docs/decisions/public-pages.md "Public search on
 * PostgreSQL full-text search"): every query word must begin a word of the listing (accents and
 * case ignored); hits are ordered by title then id.
 */
export async function searchPublicProperties(deps: { db: Db }, input: TPublicSearchInput): Promise<PublicSearchResult> {
  const { q, limit, city } = ZPublicSearchInput.parse(input);
  const condition = matchCondition(searchWordsOf(q), city);
  const [rows, [counted]] = await Promise.all([
    queryRows<DocumentRow>(deps.db, pageStatement(condition, limit)),
    queryRows<{ matches: number }>(
      deps.db,
      Prisma.sql`
        SELECT count(*)::int AS "matches" FROM (
          SELECT 1 FROM "public_search_documents" d WHERE ${condition ?? Prisma.sql`TRUE`}
          LIMIT ${PUBLIC_SEARCH_LIMITS.totalCap + 1}) m`,
    ),
  ]);
  const matches = counted?.matches ?? 0;
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
    totalIsLowerBound: matches > PUBLIC_SEARCH_LIMITS.totalCap,
    results,
  };
}
