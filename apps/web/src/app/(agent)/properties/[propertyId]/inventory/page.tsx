import type { Metadata } from 'next';
import { InventoryHeader } from '@/components/inventory/inventory-header';
import { InventoryManager } from '@/components/inventory/inventory-manager';

export const metadata: Metadata = { title: 'Inventory' };

export default async function InventoryPage({ params }: PageProps<'/properties/[propertyId]/inventory'>) {
  const { propertyId } = await params;
  return (
    <>
      <InventoryHeader propertyId={propertyId} />
      <InventoryManager propertyId={propertyId} />
    </>
  );
}
