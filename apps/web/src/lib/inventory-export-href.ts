import type { Locale } from '@staging/domain/locale';

/** The streamed CSV export of a property's inventory (apps/api), with status labels in `locale`. */
export function inventoryExportHref(propertyId: string, locale: Locale): string {
  return `/api/properties/${encodeURIComponent(propertyId)}/inventory.csv?locale=${locale}`;
}
