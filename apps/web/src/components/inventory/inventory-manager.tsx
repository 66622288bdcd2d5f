'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { DeleteUnitResult, InventoryItemRecord } from '@staging/contracts/inventory';
import type { InventoryStatus } from '@staging/domain/inventory';
import { useTRPC } from '@/client/trpc';
import { useIdSelection } from '@/client/use-id-selection';
import { useFocusTarget } from '@/client/use-focus-target';
import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';
import { BulkBar } from './bulk-bar';
import { CsvImport } from './csv-import';
import { InventoryToolbar } from './inventory-toolbar';
import { ItemDeleteDialog } from './item-delete-dialog';
import { PagedInventory } from './paged-inventory';
import { AddUnitForm } from './unit-controls';
import { UnitSection } from './unit-section';
import { UnitsLoadError } from './units-load-error';
import { useItemDelete } from './use-item-delete';

type Filter = InventoryStatus | 'ALL';

/** The inventory of one property: units with their items, filters, selection and bulk actions. */
export function InventoryManager({ propertyId }: { propertyId: string }) {
  const trpc = useTRPC();
  const id = useId();
  const { t } = useDashboardText('inventory');
  const units = useQuery(trpc.inventory.getUnits.queryOptions({ propertyId }, { staleTime: 5 * 60_000 }));
  const [filter, setFilter] = useState<Filter>('ALL');
  const selection = useIdSelection();
  const { selected } = selection;
  const itemDelete = useItemDelete(propertyId, (itemId) => selection.drop(new Set([itemId])));
  // A removed unit's section goes with its controls, so the page says what went and takes focus.
  const [removedUnit, setRemovedUnit] = useState<DeleteUnitResult | undefined>();
  const removedFocus = useFocusTarget<HTMLParagraphElement>();

  if (units.isPending) return <p role="status">{t('loading')}</p>;
  if (units.isError) {
    // More than getUnits answers in one piece: the same inventory, a page at a time.
    if (describeError(units.error).code === 'RESULT_TOO_LARGE') return <PagedInventory propertyId={propertyId} />;
    return <UnitsLoadError error={units.error} onRetry={() => void units.refetch()} />;
  }

  const visible = (items: InventoryItemRecord[]) => (filter === 'ALL' ? items : items.filter((item) => item.status === filter));
  const allItems = units.data.units.flatMap((unit) => unit.items);
  // Only what is still visible stays selected, so a bulk action never touches hidden rows.
  const visibleIds = new Set(units.data.units.flatMap((unit) => visible(unit.items)).map((item) => item.itemId));
  const selectedIds = [...selected].filter((itemId) => visibleIds.has(itemId));

  return (
    <div className="stack">
      <InventoryToolbar id={id} propertyId={propertyId} filter={filter} shown={visibleIds.size} total={allItems.length} onFilter={setFilter} />

      <BulkBar propertyId={propertyId} selectedIds={selectedIds} onDone={(deleted) => deleted && selection.pickOnly([])} />

      <p role="status" ref={removedFocus.ref} tabIndex={-1} className="small" style={{ margin: 0 }} data-testid="unit-removed">
        {removedUnit === undefined ? '' : t('unitRemoved', { unit: removedUnit.name, count: removedUnit.deletedItemCount })}
      </p>
      {units.data.units.length === 0 && <p>{t('noUnits')}</p>}
      {units.data.units.map((unit) => (
        <UnitSection
          key={unit.propertyUnitId}
          headingId={`${id}-${unit.propertyUnitId}`}
          unit={unit}
          rows={visible(unit.items)}
          filter={filter}
          propertyId={propertyId}
          selected={selected}
          onSelectRows={(rows, on) => selection.toggleAll(rows.map((item) => item.itemId), on)}
          onToggle={selection.toggle}
          onDelete={itemDelete.ask}
          onRemoved={(result) => {
            setRemovedUnit(result);
            removedFocus.moveFocus();
          }}
        />
      ))}

      <AddUnitForm propertyId={propertyId} />

      {units.data.units.length > 0 && <CsvImport propertyId={propertyId} units={units.data.units} />}

      <ItemDeleteDialog flow={itemDelete} />
    </div>
  );
}
