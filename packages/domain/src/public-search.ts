/**
 * Bounds of a public search: the query's length, how many results a page may ask for, and how far
 * matches are counted (past it, `total` is a lower bound: counting every match of a common word
 * would read every matching listing on each search).
 */
export const PUBLIC_SEARCH_LIMITS = { queryMaxLength: 200, defaultLimit: 20, maxLimit: 50, totalCap: 1_000, cityMaxLength: 100 } as const;

/**
 * The words of a search query. A word is a run of letters, combining marks and digits: everything
 * else separates words, as PostgreSQL's text parser separates the words of a listing, so that
 * punctuation, quotes or tsquery operators in a query are never more than separators. Accents and
 * case are folded by the database (the same function folds the listings' words).
 */
export function searchWordsOf(query: string): string[] {
  const words = query.normalize('NFKC').split(/[^\p{L}\p{M}\p{N}]+/u).filter((word) => word.length > 0);
  return [...new Set(words)];
}
