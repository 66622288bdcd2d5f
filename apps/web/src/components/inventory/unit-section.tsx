'use client';

import type { DeleteUnitResult, InventoryItemRecord, InventoryUnitRecord } from '@staging/contracts/inventory';
import { inventoryStatusLabel, type InventoryStatus } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { CreateItemForm } from './create-item-form';
import { ItemColumnHeads } from './item-cells';
import { ItemRow } from './item-row';
import { UnitActions } from './unit-controls';

/** One unit of the inventory: its heading and controls, its items as the filter shows them, and a form for a new one. */
export function UnitSection({
  headingId,
  unit,
  rows,
  filter,
  propertyId,
  selected,
  onSelectRows,
  onToggle,
  onDelete,
  onRemoved,
}: {
  headingId: string;
  unit: InventoryUnitRecord;
  /** The unit's items the filter shows. */
  rows: InventoryItemRecord[];
  filter: InventoryStatus | 'ALL';
  propertyId: string;
  selected: ReadonlySet<string>;
  onSelectRows: (rows: InventoryItemRecord[], on: boolean) => void;
  onToggle: (itemId: string, on: boolean) => void;
  onDelete: (item: InventoryItemRecord) => void;
  onRemoved: (result: DeleteUnitResult) => void;
}) {
  const { t, locale } = useDashboardText('inventory');
  const allSelected = rows.length > 0 && rows.every((item) => selected.has(item.itemId));
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {unit.name} <span className="badge badge-neutral">{unit.items.length}</span>
      </h2>
      <UnitActions unit={unit} propertyId={propertyId} onRemoved={onRemoved} />
      <div className="table-wrap table-cards">
        <table aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col" data-label={t('selectAll')}>
                <input
                  type="checkbox"
                  aria-label={t('selectAllOf', { unit: unit.name })}
                  checked={allSelected}
                  disabled={rows.length === 0}
                  onChange={(event) => onSelectRows(rows, event.target.checked)}
                />
              </th>
              <ItemColumnHeads />
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={7} className="muted">
                  {filter === 'ALL' ? t('noItems') : t('noItemsWithStatus', { status: inventoryStatusLabel(filter, locale) })}
                </td>
              </tr>
            )}
            {rows.map((item) => (
              <ItemRow
                key={item.itemId}
                item={item}
                propertyId={propertyId}
                selected={selected.has(item.itemId)}
                onToggle={onToggle}
                onDelete={onDelete}
              />
            ))}
          </tbody>
        </table>
      </div>
      <CreateItemForm propertyId={propertyId} unitId={unit.propertyUnitId} unitName={unit.name} />
    </section>
  );
}
