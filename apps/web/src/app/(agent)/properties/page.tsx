import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PropertyList } from '@/components/property-list';
import { PageTitle } from '@/components/page-title';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('common'))('properties') };
}

export default async function PropertiesPage() {
  const t = await getTranslations('properties');
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <PropertyList />
    </>
  );
}
