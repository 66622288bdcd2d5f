import { ZBulkCreateInput, ZBulkItemsResult } from '@staging/contracts/inventory';
import { bulkCreateInventoryItems } from '@staging/services/inventory/bulk-create-items';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.bulkCreate (mutation): 1..500 items, all or none. */
export const bulkCreateProcedure = protectedProcedure
  .input(ZBulkCreateInput)
  .output(ZBulkItemsResult)
  .mutation(({ ctx, input }) => bulkCreateInventoryItems(inventoryContext(ctx), input));
