'use client';

import { useId } from 'react';
import { useTRPC } from '@/client/trpc';
import { useCursorPages } from '@/client/use-cursor-pages';
import { useDashboardText } from '@/client/use-dashboard-text';
import { MoreButton } from '@/components/more-button';
import { QueryError } from '@/components/query-state';
import type { PropertyUnitRecord } from '@staging/contracts/inventory';
import { ExportButton } from './export-button';
import { ItemCells, ItemColumnHeads } from './item-cells';

const ITEMS_PER_PAGE = 100;
const UNITS_PER_PAGE = 50;

/** One unit's items, a page at a time (inventory.listItems, in getUnits' order). */
function UnitItems({ unit }: { unit: PropertyUnitRecord }) {
  const trpc = useTRPC();
  const id = useId();
  const { t } = useDashboardText('inventory');
  const { first, pages, more } = useCursorPages((cursor) =>
    trpc.inventory.listItems.queryOptions({ propertyUnitId: unit.propertyUnitId, limit: ITEMS_PER_PAGE, ...(cursor === undefined ? {} : { cursor }) }, { staleTime: 60_000 }),
  );
  const items = pages.flatMap((page) => page.data?.items ?? []);
  return (
    <section className="section" aria-labelledby={`${id}-unit`} data-testid="inventory-unit">
      <h2 id={`${id}-unit`}>{unit.name}</h2>
      {first.isError && <QueryError error={first.error} onRetry={() => first.refetch()} retrying={first.isFetching} />}
      <div className="table-wrap table-cards">
        <table aria-labelledby={`${id}-unit`}>
          <thead>
            <tr>
              <ItemColumnHeads />
            </tr>
          </thead>
          <tbody>
            {first.isSuccess && items.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  {t('noItems')}
                </td>
              </tr>
            )}
            {items.map((item) => (
              <tr key={item.itemId} data-testid="inventory-row" data-unit-number={item.unitNumber}>
                <ItemCells item={item} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <MoreButton more={more} label={t('moreItems', { unit: unit.name })} busy={pages.some((page) => page.isFetching)} testId="inventory-more" />
    </section>
  );
}

/**
 * The inventory of a property too large to read in one piece (getUnits answered
 * RESULT_TOO_LARGE): units and their items a page at a time, read-only, with the streamed export.
 * Changing many items of such a property is done by export, edit and import; see
 * docs/decisions/inventory.md "Inventory at a customer's size".
 */
export function PagedInventory({ propertyId }: { propertyId: string }) {
  const trpc = useTRPC();
  const { t } = useDashboardText('inventory');
  const { first, pages, more } = useCursorPages((cursor) =>
    trpc.inventory.listUnits.queryOptions({ propertyId, limit: UNITS_PER_PAGE, ...(cursor === undefined ? {} : { cursor }) }, { staleTime: 60_000 }),
  );
  const units = pages.flatMap((page) => page.data?.units ?? []);
  return (
    <div className="stack" data-testid="paged-inventory">
      <div className="toolbar">
        <p className="muted" style={{ margin: 0, alignSelf: 'center' }}>
          {t('pagedIntro', { count: ITEMS_PER_PAGE })}
        </p>
        <ExportButton propertyId={propertyId} />
      </div>
      {first.isError && <QueryError error={first.error} onRetry={() => first.refetch()} retrying={first.isFetching} />}
      {units.map((unit) => (
        <UnitItems key={unit.propertyUnitId} unit={unit} />
      ))}
      <MoreButton more={more} label={t('moreUnits')} busy={pages.some((page) => page.isFetching)} testId="inventory-more-units" />
    </div>
  );
}
