/** Bounds of a public search: the query's length, and how many results a page may ask for. */
export const PUBLIC_SEARCH_LIMITS = { queryMaxLength: 200, defaultLimit: 20, maxLimit: 50 } as const;
