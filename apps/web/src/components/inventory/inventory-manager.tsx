'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type DeleteUnitResult, type InventoryItemRecord, type InventoryStatus } from '@staging/domain/inventory';
import { useTRPC } from '@/client/trpc';
import { useFocusTarget } from '@/client/use-focus-target';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';
import { BulkBar } from './bulk-bar';
import { CsvImport } from './csv-import';
import { ExportButton } from './export-button';
import { useInventoryCache } from './inventory-cache';
import { PagedInventory } from './paged-inventory';
import { AddUnitForm } from './unit-controls';
import { UnitSection } from './unit-section';
import { InventoryStatusOptions } from '../vocabulary-options';

type Filter = InventoryStatus | 'ALL';

/** The inventory of one property: units with their items, filters, selection and bulk actions. */
export function InventoryManager({ propertyId }: { propertyId: string }) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const id = useId();
  const { t, tc, errorSentence } = useDashboardText('inventory');
  const units = useQuery(trpc.inventory.getUnits.queryOptions({ propertyId }, { staleTime: 5 * 60_000 }));
  const [filter, setFilter] = useState<Filter>('ALL');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<InventoryItemRecord | undefined>();
  // A removed unit's section goes with its controls, so the page says what went and takes focus.
  const [removedUnit, setRemovedUnit] = useState<DeleteUnitResult | undefined>();
  const removedFocus = useFocusTarget<HTMLParagraphElement>();
  const remove = useMutation(
    trpc.inventory.delete.mutationOptions({
      onSuccess: (_result, input) => {
        cache.remove([input.itemId]);
        setSelected((old) => new Set([...old].filter((itemId) => itemId !== input.itemId)));
        setDeleting(undefined);
      },
    }),
  );

  if (units.isPending) return <p role="status">{t('loading')}</p>;
  if (units.isError) {
    // More than getUnits answers in one piece: the same inventory, a page at a time.
    if (describeError(units.error).code === 'RESULT_TOO_LARGE') return <PagedInventory propertyId={propertyId} />;
    const notFound = describeError(units.error).code === 'NOT_FOUND';
    return (
      <div className="alert alert-error" role="alert">
        {notFound ? t('notFound') : errorSentence(units.error)}
        {!notFound && (
          <button type="button" className="link-button" style={{ marginLeft: '0.5rem' }} onClick={() => void units.refetch()}>
            {tc('tryAgain')}
          </button>
        )}
      </div>
    );
  }

  const visible = (items: InventoryItemRecord[]) => (filter === 'ALL' ? items : items.filter((item) => item.status === filter));
  const allItems = units.data.units.flatMap((unit) => unit.items);
  // Only what is still visible stays selected, so a bulk action never touches hidden rows.
  const visibleIds = new Set(units.data.units.flatMap((unit) => visible(unit.items)).map((item) => item.itemId));
  const selectedIds = [...selected].filter((itemId) => visibleIds.has(itemId));
  const toggle = (itemId: string, on: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      if (on) next.add(itemId);
      else next.delete(itemId);
      return next;
    });

  return (
    <div className="stack">
      <div className="toolbar">
        <div className="field">
          <label htmlFor={`${id}-filter`}>{t('showStatus')}</label>
          <select id={`${id}-filter`} value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
            <option value="ALL">{t('allStatuses')}</option>
            <InventoryStatusOptions />
          </select>
        </div>
        <p className="muted" style={{ margin: 0, alignSelf: 'center' }}>
          {t('shown', { shown: visibleIds.size, total: allItems.length })}
        </p>
        <ExportButton propertyId={propertyId} disabled={allItems.length === 0} />
      </div>

      <BulkBar propertyId={propertyId} selectedIds={selectedIds} onDone={(deleted) => deleted && setSelected(new Set())} />

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
          onSelectRows={(rows, on) =>
            setSelected((old) => {
              const next = new Set(old);
              for (const item of rows) {
                if (on) next.add(item.itemId);
                else next.delete(item.itemId);
              }
              return next;
            })
          }
          onToggle={toggle}
          onDelete={(target) => {
            remove.reset();
            setDeleting(target);
          }}
          onRemoved={(result) => {
            setRemovedUnit(result);
            removedFocus.moveFocus();
          }}
        />
      ))}

      <AddUnitForm propertyId={propertyId} />

      {units.data.units.length > 0 && <CsvImport propertyId={propertyId} units={units.data.units} />}

      <ConfirmDialog
        open={deleting !== undefined}
        title={t('deleteTitle', { unit: deleting?.unitNumber ?? '' })}
        confirmLabel={t('deleteConfirm')}
        danger
        busy={remove.isPending}
        error={remove.isError ? errorSentence(remove.error) : undefined}
        onConfirm={() => deleting !== undefined && remove.mutate({ itemId: deleting.itemId })}
        onCancel={() => setDeleting(undefined)}
      >
        <p>{t('deleteBody')}</p>
      </ConfirmDialog>
    </div>
  );
}
