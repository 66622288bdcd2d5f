'use client';

import { downloadUrl } from '@/client/download-text';
import { useDashboardText } from '@/client/use-dashboard-text';
import { inventoryExportHref } from '@/lib/inventory-export-href';

/** Downloads the property's whole inventory as CSV, streamed by the api whatever its size. */
export function ExportButton({ propertyId, disabled = false }: { propertyId: string; disabled?: boolean }) {
  const { t, locale } = useDashboardText('inventory');
  return (
    <button type="button" className="button" style={{ marginLeft: 'auto' }} disabled={disabled} onClick={() => downloadUrl(inventoryExportHref(propertyId, locale))}>
      {t('export')}
    </button>
  );
}
