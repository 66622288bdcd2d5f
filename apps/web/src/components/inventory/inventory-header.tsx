'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/client/trpc';

/** Breadcrumbs and heading naming the property (its title comes from property.get). */
export function InventoryHeader({ propertyId }: { propertyId: string }) {
  const trpc = useTRPC();
  const property = useQuery(trpc.property.get.queryOptions({ propertyId }, { retry: false }));
  const title = property.data?.title;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <Link href="/properties">Properties</Link> /{' '}
        <Link href={`/properties/${encodeURIComponent(propertyId)}`}>{title ?? 'Property'}</Link> / Inventory
      </nav>
      <div className="page-header">
        <h1>{title === undefined ? 'Inventory' : `Inventory · ${title}`}</h1>
      </div>
    </>
  );
}
