import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { InventoryHeader } from '@/components/inventory/inventory-header';
import { InventoryManager } from '@/components/inventory/inventory-manager';
import { managedPropertyTitle } from '@/server/property-title';

export async function generateMetadata({ params }: PageProps<'/properties/[propertyId]/inventory'>): Promise<Metadata> {
  const title = await managedPropertyTitle((await params).propertyId);
  return { title: title === null ? (await getTranslations('common'))('inventory') : (await getTranslations('inventory'))('heading', { title }) };
}

export default async function InventoryPage({ params }: PageProps<'/properties/[propertyId]/inventory'>) {
  const { propertyId } = await params;
  return (
    <>
      <InventoryHeader propertyId={propertyId} />
      <InventoryManager propertyId={propertyId} />
    </>
  );
}
