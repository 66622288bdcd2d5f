import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getTranslations } from 'next-intl/server';
import type { PublicPropertyDto } from '@staging/contracts/public';
import { isAppError } from '@staging/domain/errors';
import { PublicGallery } from '@/components/public-gallery';
import { cachedPublicProperty, pinLocale } from '@/server/public-pages';

// Rendered on a listing's first visit in each language, then served from Next.js's cache until a
// change expires it (publicListingTag) or, should that event be lost, for at most this long
// (PUBLIC_PAGE_REVALIDATE_SECONDS).
export const revalidate = 60;

// No listing is rendered at build time (there is no database then); each is on its first visit.
export function generateStaticParams(): { locale: string; propertyId: string }[] {
  return [];
}

// One read per render: the metadata and the page ask for the same listing, and React's cache
// hands the second the first's answer.
const loadProperty = cache(async (propertyId: string): Promise<PublicPropertyDto> => {
  try {
    return await cachedPublicProperty(propertyId);
  } catch (error) {
    if (isAppError(error) && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: PageProps<'/[locale]/listings/[propertyId]'>): Promise<Metadata> {
  const property = await loadProperty((await params).propertyId);
  return { title: property.title };
}

/**
 * The anonymous listing page: the photos the agent shows on the public page and their APPROVED
 * staged versions (the service filters them); the cover is always one of those originals.
 */
export default async function PublicListingPage({ params }: PageProps<'/[locale]/listings/[propertyId]'>) {
  const { locale, propertyId } = await params;
  pinLocale(locale);
  const property = await loadProperty(propertyId);
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
