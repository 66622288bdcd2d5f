import { ZListItemsInput, ZListItemsResult } from '@staging/contracts/inventory';
import { listInventoryItems } from '@staging/services/inventory/list-items';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.listItems (query): one page of a unit's items. */
export const listItemsProcedure = protectedProcedure
  .input(ZListItemsInput)
  .output(ZListItemsResult)
  .query(({ ctx, input }) => listInventoryItems(inventoryContext(ctx), input));
