'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { Locale } from '@staging/domain/locale';
import { useTRPC } from '@/client/trpc';
import { QueryError, QueryLoading } from '@/components/query-state';
import { describeError } from '@/lib/api-errors';
import { JobsPanel } from './jobs-panel';
import { OriginalsSection, photoName } from './originals-section';
import { StagePanel } from './stage-panel';

/** The agent's property page: originals and variants, the stage flow and the jobs panel. */
export function PropertyView({
  propertyId,
  stagingEnabled,
  priceMicrousd,
  initialLocale,
}: {
  propertyId: string;
  stagingEnabled: boolean;
  priceMicrousd: number | null;
  initialLocale: Locale;
}) {
  const trpc = useTRPC();
  const property = useQuery(trpc.property.get.queryOptions({ propertyId }));

  if (property.isPending) return <QueryLoading>Loading property…</QueryLoading>;
  if (property.isError) {
    const notFound = describeError(property.error).code === 'NOT_FOUND';
    return (
      <>
        <h1>{notFound ? 'Property not found' : 'Property unavailable'}</h1>
        {notFound ? (
          <p className="alert alert-error" role="alert">
            This property does not exist, or it is not one of yours.
          </p>
        ) : (
          <QueryError error={property.error} onRetry={() => property.refetch()} retrying={property.isFetching} />
        )}
        <p>
          <Link href="/properties">Back to your properties</Link>
        </p>
      </>
    );
  }

  const data = property.data;
  const originals = data.images.filter((image) => !image.isStyled);
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <Link href="/properties">Properties</Link> / {data.title}
      </nav>
      <div className="page-header">
        <div>
          <h1>{data.title}</h1>
          <p className="muted" style={{ margin: 0 }}>
            {data.address}, {data.city} · {data.bedrooms} bedrooms · {data.bathrooms} bathrooms
          </p>
        </div>
        <div className="row">
          <Link className="button" href={`/properties/${encodeURIComponent(data.id)}/inventory`}>
            Inventory
          </Link>
          <Link className="button" href={`/listings/${encodeURIComponent(data.id)}`}>
            Public page
          </Link>
          {data.review.pendingReview > 0 && (
            <Link className="button button-primary" href="/review">
              Review {data.review.pendingReview} variant{data.review.pendingReview === 1 ? '' : 's'}
            </Link>
          )}
        </div>
      </div>
      <OriginalsSection property={data} />
      <StagePanel property={data} stagingEnabled={stagingEnabled} priceMicrousd={priceMicrousd} initialLocale={initialLocale} />
      <JobsPanel propertyId={data.id} photoName={(imageId) => photoName(originals, imageId, false)} initialLocale={initialLocale} />
    </>
  );
}
