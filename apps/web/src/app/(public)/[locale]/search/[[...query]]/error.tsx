'use client';

import { useParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { AlertMessage } from '@/components/alert-message';
import { SearchForm } from '@/components/search-form';
import { decodeSearchQuery } from '@/lib/public-page-paths';

/**
 * What the search page shows when it could not search (Redis unreachable: the page fails then, so
 * that no cache keeps the answer): the same form, still holding the query, and why there are no
 * results.
 */
export default function SearchError() {
  const t = useTranslations('search');
  const [segment] = useParams<{ query?: string[] }>().query ?? [];
  return (
    <>
      <h1>{t('title')}</h1>
      <SearchForm q={segment === undefined ? '' : (decodeSearchQuery(segment) ?? '')} />
      <AlertMessage message={t('unavailable')} tone="page" />
    </>
  );
}
