import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getTranslations } from 'next-intl/server';
import { isAppError } from '@staging/domain/errors';
import { getPublicProperty, type PublicPropertyDto } from '@staging/services/public/get-public-property';
import { PublicGallery } from '@/components/public-gallery';
import { getWebDeps } from '@/server/deps';

// One read per page view: the metadata and the page ask for the same listing in one request, and
// React's cache hands the second the first's answer (Next memoizes fetch, not database reads).
const loadProperty = cache(async (propertyId: string): Promise<PublicPropertyDto> => {
  try {
    return await getPublicProperty(getWebDeps().db, propertyId);
  } catch (error) {
    if (isAppError(error) && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: PageProps<'/listings/[propertyId]'>): Promise<Metadata> {
  const property = await loadProperty((await params).propertyId);
  return { title: property.title };
}

/**
 * The anonymous listing page: the photos the agent shows on the public page and their APPROVED
 * staged versions (the service filters them); the cover is always one of those originals.
 */
export default async function PublicListingPage({ params }: PageProps<'/listings/[propertyId]'>) {
  const property = await loadProperty((await params).propertyId);
  const t = await getTranslations('listing');
  return (
    <article>
      <header className="stack" style={{ marginBottom: '1rem' }}>
        <h1>{property.title}</h1>
        <p className="muted" style={{ margin: 0 }}>
          {property.address}, {property.city}
        </p>
        <ul className="facts">
          <li>{t('bedrooms', { count: property.bedrooms })}</li>
          <li>{t('bathrooms', { count: property.bathrooms })}</li>
          {property.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </header>
      <PublicGallery title={property.title} cover={property.coverImage} images={property.images}>
        {property.description !== null && <p className="section">{property.description}</p>}
      </PublicGallery>
    </article>
  );
}
