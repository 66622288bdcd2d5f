import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PropertyList } from '@/components/property-list';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('common'))('properties') };
}

export default async function PropertiesPage() {
  const t = await getTranslations('properties');
  return (
    <>
      <div className="page-header">
        <h1>{t('title')}</h1>
      </div>
      <PropertyList />
    </>
  );
}
