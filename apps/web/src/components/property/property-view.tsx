'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useTRPC } from '@/client/trpc';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { QueryError, QueryLoading } from '@/components/query-state';
import { describeError } from '@/lib/api-errors';
import { JobsPanel } from './jobs-panel';
import { OriginalsSection } from './originals-section';
import { StagePanel } from './stage-panel';

/** The agent's property page: originals and variants, the stage flow and the jobs panel. */
export function PropertyView({
  propertyId,
  stagingEnabled,
  priceMicrousd,
}: {
  propertyId: string;
  stagingEnabled: boolean;
  priceMicrousd: number | null;
}) {
  const t = useTranslations('property');
  const tc = useTranslations('common');
  const tl = useTranslations('listing');
  const { photoName } = usePhotoNaming();
  const trpc = useTRPC();
  const property = useQuery(trpc.property.get.queryOptions({ propertyId }));

  if (property.isPending) return <QueryLoading>{t('loading')}</QueryLoading>;
  if (property.isError) {
    const notFound = describeError(property.error).code === 'NOT_FOUND';
    return (
      <>
        <h1>{notFound ? t('notFoundTitle') : t('unavailableTitle')}</h1>
        {notFound ? (
          <p className="alert alert-error" role="alert">
            {t('notFoundBody')}
          </p>
        ) : (
          <QueryError error={property.error} onRetry={() => property.refetch()} retrying={property.isFetching} />
        )}
        <p>
          <Link href="/properties">{t('back')}</Link>
        </p>
      </>
    );
  }

  const data = property.data;
  const originals = data.images.filter((image) => !image.isStyled);
  return (
    <>
      <nav aria-label={tc('breadcrumb')} className="breadcrumbs">
        <Link href="/properties">{tc('properties')}</Link> / {data.title}
      </nav>
      <div className="page-header">
        <div>
          <h1>{data.title}</h1>
          <p className="muted" style={{ margin: 0 }}>
            {data.address}, {data.city} · {tl('bedrooms', { count: data.bedrooms })} · {tl('bathrooms', { count: data.bathrooms })}
          </p>
        </div>
        <div className="row">
          {/* On a phone the staging form sits below every photo: one move from the top reaches it. */}
          <a className="button button-primary" href="#stage-panel">
            {t('toStagePanel')}
          </a>
          <Link className="button" href={`/properties/${encodeURIComponent(data.id)}/inventory`}>
            {tc('inventory')}
          </Link>
          <Link className="button" href={`/listings/${encodeURIComponent(data.id)}`}>
            {t('publicPage')}
          </Link>
          {data.review.pendingReview > 0 && (
            <Link className="button button-primary" href="/review">
              {t('reviewVariants', { count: data.review.pendingReview })}
            </Link>
          )}
        </div>
      </div>
      <OriginalsSection property={data} />
      <StagePanel property={data} stagingEnabled={stagingEnabled} priceMicrousd={priceMicrousd} />
      <JobsPanel propertyId={data.id} photoName={(imageId) => photoName(originals, imageId, false)} />
    </>
  );
}
