import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { InventoryHeader } from '@/components/inventory/inventory-header';
import { InventoryManager } from '@/components/inventory/inventory-manager';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('common'))('inventory') };
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
