import { INVENTORY_EXPORT_HEADER, inventoryExportRow, toCsv } from '@staging/domain/inventory-csv-cells';
import { LIST_ITEMS_MAX_LIMIT, LIST_UNITS_MAX_LIMIT } from '@staging/domain/inventory';
import type { Locale } from '@staging/domain/locale';
import type { InventoryContext } from './item-records';
import { listInventoryItems } from './list-items';
import { listInventoryUnits } from './list-units';

/**
 * The CSV export of a property's inventory as text chunks, read a page at a time (listUnits and
 * listItems, each an index range scan), so a property of any size is exported in bounded memory
 * and the caller can stop the walk by not asking for more. The text is exactly what the
 * dashboard's own export of getUnits writes: the header, then each unit's items in getUnits'
 * order, CRLF between rows and none at the end.
 *
 * @throws AppError NOT_FOUND on the first `next()` when the actor may not read the property.
 */
export async function* inventoryCsvChunks(ctx: InventoryContext, input: { propertyId: string; locale: Locale }): AsyncGenerator<string, void> {
  // Read before the header, so a refused property throws before anything is written.
  let units = await listInventoryUnits(ctx, { propertyId: input.propertyId, limit: LIST_UNITS_MAX_LIMIT, cursor: null });
  yield toCsv([INVENTORY_EXPORT_HEADER]);
  for (;;) {
    for (const unit of units.units) {
      let cursor: string | null = null;
      do {
        const page = await listInventoryItems(ctx, { propertyUnitId: unit.propertyUnitId, limit: LIST_ITEMS_MAX_LIMIT, cursor });
        if (page.items.length > 0) yield `\r\n${toCsv(page.items.map((item) => inventoryExportRow(unit.name, item, input.locale)))}`;
        cursor = page.nextCursor;
      } while (cursor !== null);
    }
    if (units.nextCursor === null) return;
    units = await listInventoryUnits(ctx, { propertyId: input.propertyId, limit: LIST_UNITS_MAX_LIMIT, cursor: units.nextCursor });
  }
}
