'use client';

import { useTranslations } from 'next-intl';
import { INVENTORY_STATUSES, type InventoryStatus } from '@staging/domain/inventory';
import { ExportButton } from './export-button';
import { InventoryStatusOptions } from '../vocabulary-options';

/** The status filter, how many items it shows of all, and the export. */
export function InventoryToolbar({
  id,
  propertyId,
  filter,
  shown,
  total,
  onFilter,
}: {
  /** Prefix of the filter's id. */
  id: string;
  propertyId: string;
  filter: InventoryStatus | 'ALL';
  shown: number;
  total: number;
  onFilter: (filter: InventoryStatus | 'ALL') => void;
}) {
  const t = useTranslations('inventory');
  return (
    <div className="toolbar">
      <div className="field">
        <label htmlFor={`${id}-filter`}>{t('showStatus')}</label>
        <select id={`${id}-filter`} value={filter} onChange={(event) => onFilter(INVENTORY_STATUSES.find((status) => status === event.target.value) ?? 'ALL')}>
          <option value="ALL">{t('allStatuses')}</option>
          <InventoryStatusOptions />
        </select>
      </div>
      <p className="muted" style={{ margin: 0, alignSelf: 'center' }}>
        {t('shown', { shown, total })}
      </p>
      <ExportButton propertyId={propertyId} disabled={total === 0} />
    </div>
  );
}
