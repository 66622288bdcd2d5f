import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ReviewQueue } from '@/components/review/review-queue';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('review'))('metaTitle') };
}

export default async function ReviewPage({ searchParams }: PageProps<'/review'>) {
  const t = await getTranslations('review');
  const image = (await searchParams).image;
  return (
    <>
      <div className="page-header">
        <h1>{t('title')}</h1>
      </div>
      <p className="muted">{t('intro')}</p>
      <ReviewQueue focusImageId={typeof image === 'string' ? image : undefined} />
    </>
  );
}
