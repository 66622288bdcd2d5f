import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PropertyView } from '@/components/property/property-view';
import { getWebDeps } from '@/server/deps';
import { managedPropertyTitle } from '@/server/property-title';

export async function generateMetadata({ params }: PageProps<'/properties/[propertyId]'>): Promise<Metadata> {
  const title = await managedPropertyTitle((await params).propertyId);
  return { title: title ?? (await getTranslations('property'))('metaTitle') };
}

export default async function PropertyPage({ params }: PageProps<'/properties/[propertyId]'>) {
  const { propertyId } = await params;
  // The kill switch comes from this server's configuration, so the page knows before any click
  // that a stage action would be refused, and never sends it.
  const { config } = getWebDeps();
  // The price of one attempt at the configured quality, shown before submitting; null: no estimate.
  const priceMicrousd = config.stagingCostMicrousd[config.producer.quality] ?? null;
  return <PropertyView propertyId={propertyId} stagingEnabled={config.stagingEnabled} priceMicrousd={priceMicrousd} />;
}
