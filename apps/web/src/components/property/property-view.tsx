'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { Locale } from '@staging/domain/locale';
import { useTRPC } from '@/client/trpc';
import { describeError, errorSentence } from '@/lib/api-errors';
import { JobsPanel } from './jobs-panel';
import { OriginalsSection, photoName } from './originals-section';
import { StagePanel } from './stage-panel';

/** The agent's property page: originals and variants, the stage flow and the jobs panel. */
export function PropertyView({ propertyId, stagingEnabled, initialLocale }: { propertyId: string; stagingEnabled: boolean; initialLocale: Locale }) {
  const trpc = useTRPC();
  const property = useQuery(trpc.property.get.queryOptions({ propertyId }));

  if (property.isPending) return <p role="status">Loading property…</p>;
  if (property.isError) {
    const notFound = describeError(property.error).code === 'NOT_FOUND';
    return (
      <>
        <h1>{notFound ? 'Property not found' : 'Property unavailable'}</h1>
        <p className="alert alert-error" role="alert">
          {notFound ? 'This property does not exist, or it is not one of yours.' : errorSentence(property.error)}
        </p>
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
      <StagePanel property={data} stagingEnabled={stagingEnabled} initialLocale={initialLocale} />
      <JobsPanel propertyId={data.id} photoName={(imageId) => photoName(originals, imageId, false)} initialLocale={initialLocale} />
    </>
  );
}
