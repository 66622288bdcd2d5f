import type { Metadata } from 'next';
import { PropertyList } from '@/components/property-list';

export const metadata: Metadata = { title: 'Properties' };

export default function PropertiesPage() {
  return (
    <>
      <div className="page-header">
        <h1>Your properties</h1>
      </div>
      <PropertyList />
    </>
  );
}
