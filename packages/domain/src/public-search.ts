/**
 * Bounds of a public search: the query's length, how many results a page may ask for, and how far
 * the matches are counted (a total past that is reported as "at least").
 */
export const PUBLIC_SEARCH_LIMITS = { queryMaxLength: 200, defaultLimit: 20, maxLimit: 50, totalCountLimit: 1_000 } as const;

/**
 * The words of a search query: NFKC, split at anything that is not a letter or a digit, so no
 * query character can mean more than a letter to the database. Case and accents are folded by the
 * database with the same function as the listings' text (public_search_fold, migration 0027).
 */
export function searchWordsOf(query: string): string[] {
  return query
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}
