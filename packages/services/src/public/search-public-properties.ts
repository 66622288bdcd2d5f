import { z } from 'zod';
import { Prisma, queryRows } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { PUBLIC_SEARCH_LIMITS, searchWordsOf } from '@staging/domain/public-search';
import { readPublicProperties } from './get-public-property';
import { toPublicImages, ZPublicImage } from './public-images';

// Kept in the domain so the web's proxy can bound a query without loading this module.
export { PUBLIC_SEARCH_LIMITS };

export const ZPublicSearchInput = z.strictObject({
  q: z.string().max(PUBLIC_SEARCH_LIMITS.queryMaxLength).default(''),
  limit: z.number().int().min(1).max(PUBLIC_SEARCH_LIMITS.maxLimit).default(PUBLIC_SEARCH_LIMITS.defaultLimit),
  /** Listings of this city only, compared as the words are (case and accents aside). */
  city: z.string().max(PUBLIC_SEARCH_LIMITS.queryMaxLength).optional(),
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
  /** Matching listings, counted up to PUBLIC_SEARCH_LIMITS.totalCountLimit. */
  total: z.int().nonnegative(),
  /** True when more listings match than `total` counts. */
  totalIsLowerBound: z.boolean(),
  results: z.array(ZPublicSearchHit),
});
export type PublicSearchResult = z.infer<typeof ZPublicSearchResult>;

// The same expression as the indexes of migration 0027, so the planner can use them.
const SEARCH_TEXT = Prisma.sql`property_search_text(p."title", p."city", p."address", p."description", p."features")`;

/**
 * Every word must occur: a word of three characters or more anywhere in the listing's text (the
 * trigram index), a shorter one as the start of a word (the full-text index, prefix match).
 */
function matchSql(words: readonly string[], city: string | undefined): Prisma.Sql {
  // Letters and digits only (searchWordsOf), so neither LIKE nor tsquery reads an operator in
  // them; the quoting keeps it so whatever the folding makes of a letter.
  const conditions = words.map((word) =>
    word.length >= 3
      ? Prisma.sql`${SEARCH_TEXT} LIKE '%' || public_search_fold(${word}) || '%'`
      : Prisma.sql`to_tsvector('simple'::regconfig, ${SEARCH_TEXT}) @@ to_tsquery('simple'::regconfig, quote_literal(public_search_fold(${word})) || ':*')`,
  );
  if (city !== undefined) conditions.push(Prisma.sql`public_search_fold(p."city") = public_search_fold(${city})`);
  return conditions.length === 0 ? Prisma.sql`TRUE` : Prisma.join(conditions, ' AND ');
}

/**
 * Anonymous search over every listing on Postgres indexes (docs/decisions/public-pages.md "Public
 * search on a search index"): every query word must occur, accents and case aside; hits are
 * ordered by title, with the public images of the same rule as the listing page.
 */
export async function searchPublicProperties(deps: { db: Db }, input: TPublicSearchInput): Promise<PublicSearchResult> {
  const { q, limit, city } = ZPublicSearchInput.parse(input);
  const match = matchSql(searchWordsOf(q), city === undefined || city.trim() === '' ? undefined : city);
  const countLimit = PUBLIC_SEARCH_LIMITS.totalCountLimit;
  const [page, [counted]] = await Promise.all([
    queryRows<{ id: string }>(deps.db, Prisma.sql`SELECT p."id" FROM "properties" p WHERE ${match} ORDER BY p."title", p."id" LIMIT ${limit}`),
    queryRows<{ total: number }>(
      deps.db,
      Prisma.sql`SELECT count(*)::int AS "total" FROM (SELECT 1 FROM "properties" p WHERE ${match} LIMIT ${countLimit + 1}) m`,
    ),
  ]);
  const total = counted?.total ?? 0;
  if (page.length === 0) return { query: q, total: 0, totalIsLowerBound: false, results: [] };
  const rows = new Map((await readPublicProperties(deps.db, page.map((hit) => hit.id))).map((row) => [row.id, row]));
  const results = page.flatMap(({ id }): PublicSearchHit[] => {
    const row = rows.get(id);
    // Deleted between the two reads: skipped rather than answered half-empty.
    if (row === undefined) return [];
    const images = toPublicImages(row.images);
    return [
      {
        id: row.id,
        title: row.title,
        city: row.city,
        address: row.address,
        bedrooms: row.bedrooms,
        bathrooms: row.bathrooms,
        coverImage: images.find((image) => image.isCover) ?? null,
        images,
      },
    ];
  });
  return { query: q, total: Math.min(total, countLimit), totalIsLowerBound: total > countLimit, results };
}
