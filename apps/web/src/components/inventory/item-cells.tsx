'use client';

import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { inventoryStatusLabel } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { formatPriceAdjustment } from '@/lib/format';

/** The column heads of an item's own fields, in the order {@link ItemCells} writes them. */
export function ItemColumnHeads() {
  const { t } = useDashboardText('inventory');
  return (
    <>
      <th scope="col">{t('unitNumber')}</th>
      <th scope="col" className="num">
        {t('floor')}
      </th>
      <th scope="col">{t('status')}</th>
      <th scope="col" className="num">
        {t('priceAdjustment')}
      </th>
      <th scope="col">{t('notes')}</th>
    </>
  );
}

/** An item's own fields as table cells, read-only. */
export function ItemCells({ item }: { item: InventoryItemRecord }) {
  const { t, locale } = useDashboardText('inventory');
  return (
    <>
      <td data-label={t('unitNumber')}>{item.unitNumber}</td>
      <td className="num" data-label={t('floor')}>
        {item.floor ?? '—'}
      </td>
      <td data-label={t('status')}>
        <span className="status">{inventoryStatusLabel(item.status, locale)}</span>
      </td>
      <td className="num" data-testid="price" data-label={t('priceAdjustment')}>
        {formatPriceAdjustment(item.priceAdjustment, locale)}
      </td>
      <td data-label={t('notes')}>{item.notes ?? ''}</td>
    </>
  );
}

/** The cell with the item's selection checkbox, first in its row whether it is read or edited. */
export function ItemSelectCell({ item, selected, onToggle }: { item: InventoryItemRecord; selected: boolean; onToggle: (itemId: string, selected: boolean) => void }) {
  const { t } = useDashboardText('inventory');
  return (
    <td>
      <input type="checkbox" aria-label={t('select', { unit: item.unitNumber })} checked={selected} onChange={(event) => onToggle(item.itemId, event.target.checked)} />
    </td>
  );
}
