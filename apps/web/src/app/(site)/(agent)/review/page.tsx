import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ReviewQueue } from '@/components/review/review-queue';
import { PageTitle } from '@/components/page-title';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('review'))('metaTitle') };
}

export default async function ReviewPage({ searchParams }: PageProps<'/review'>) {
  const t = await getTranslations('review');
  const image = (await searchParams).image;
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <p className="muted">{t('intro')}</p>
      <ReviewQueue focusImageId={typeof image === 'string' ? image : undefined} />
    </>
  );
}
