'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useTRPC } from '@/client/trpc';

/** Breadcrumbs and heading naming the property (its title comes from property.get). */
export function InventoryHeader({ propertyId }: { propertyId: string }) {
  const t = useTranslations('inventory');
  const tc = useTranslations('common');
  const trpc = useTRPC();
  const property = useQuery(trpc.property.get.queryOptions({ propertyId }, { retry: false }));
  const title = property.data?.title;
  return (
    <>
      <nav aria-label={tc('breadcrumb')} className="breadcrumbs">
        <Link href="/properties">{tc('properties')}</Link> /{' '}
        <Link href={`/properties/${encodeURIComponent(propertyId)}`}>{title ?? t('property')}</Link> / {tc('inventory')}
      </nav>
      <div className="page-header">
        <h1>{title === undefined ? tc('inventory') : t('heading', { title })}</h1>
      </div>
    </>
  );
}
