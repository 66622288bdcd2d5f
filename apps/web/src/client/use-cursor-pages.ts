'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import type { QueryKey, UseQueryOptions, UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * Keyset pages read one after another on demand ("Show more"): the first page, then one query
 * per cursor asked for, each cached and refreshed on its own. `more` is undefined on the last page.
 */
export function useCursorPages<TData extends { nextCursor: string | null }, TError, TKey extends QueryKey>(
  optionsFor: (cursor: string | undefined) => UseQueryOptions<TData, TError, TData, TKey>,
): { first: UseQueryResult<TData, TError>; pages: UseQueryResult<TData, TError>[]; more: (() => void) | undefined } {
  // Cursors of the pages after the first.
  const [cursors, setCursors] = useState<string[]>([]);
  const first = useQuery(optionsFor(undefined));
  const rest = useQueries({ queries: cursors.map(optionsFor) }) as UseQueryResult<TData, TError>[];
  const pages = [first, ...rest];
  const nextCursor = pages[pages.length - 1]?.data?.nextCursor ?? null;
  return { first, pages, more: nextCursor === null ? undefined : () => setCursors([...cursors, nextCursor]) };
}
