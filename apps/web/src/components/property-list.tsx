'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPC } from '@/client/trpc';
import { Pager } from '@/components/pager';
import { QueryError, QueryLoading } from '@/components/query-state';

const PAGE_SIZE = 50;

/** The agent's owned and assigned properties (every property for an admin), newest first, a page at a time. */
export function PropertyList() {
  const t = useTranslations('properties');
  const tc = useTranslations('common');
  const trpc = useTRPC();
  // The cursor of each page shown so far; the last one is on screen.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const list = useQuery(
    trpc.property.list.queryOptions(
      { limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) },
      { placeholderData: (previous) => previous },
    ),
  );
  if (list.isPending) return <QueryLoading>{t('loading')}</QueryLoading>;
  if (list.isError)
    return <QueryError error={list.error} onRetry={() => list.refetch()} retrying={list.isFetching} />;
  if (list.data.items.length === 0) return <p>{t('empty')}</p>;
  const nextCursor = list.data.nextCursor;
  return (
    <>
      <ul className="grid" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={tc('properties')}>
        {list.data.items.map((property) => (
          <li key={property.id} className="card photo-card" data-testid="property-card">
            <div className="photo-frame">
              {property.coverImage !== null && (
                <img src={property.coverImage.thumbnailUrl} alt="" loading="lazy" />
              )}
            </div>
            <h2 style={{ fontSize: '1.1rem', margin: 0 }}>
              <Link href={`/properties/${encodeURIComponent(property.id)}`}>{property.title}</Link>
            </h2>
            <p className="muted small" style={{ margin: 0 }}>
              {property.address}, {property.city}
            </p>
            <div className="row small">
              <span className="status">{t(`relation${property.relation}`)}</span>
              <span>{t('photos', { count: property.review.originals })}</span>
              {property.review.pendingReview > 0 && (
                <span className="status status-wait">
                  {t('toReview', { count: property.review.pendingReview })}
                </span>
              )}
              {property.review.approved > 0 && (
                <span className="status status-ok">{t('staged', { count: property.review.approved })}</span>
              )}
            </div>
            <div className="row">
              <Link
                className="button button-small"
                href={`/properties/${encodeURIComponent(property.id)}/inventory`}
              >
                {tc('inventory')}
                <span className="visually-hidden"> {t('inventoryOf', { title: property.title })}</span>
              </Link>
            </div>
          </li>
        ))}
      </ul>
      <Pager
        label={t('pages')}
        cursors={cursors}
        nextCursor={nextCursor}
        onChange={setCursors}
        previousLabel={t('previousPage')}
        nextLabel={t('nextPage')}
        pageLabel={t('page', { page: cursors.length })}
      />
    </>
  );
}
