import { ZBulkItemsResult, ZBulkUpdateInput } from '@staging/contracts/inventory';
import { bulkUpdateInventoryItems } from '@staging/services/inventory/bulk-update-items';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.bulkUpdate (mutation): one change applied to every id, all or none. */
export const bulkUpdateProcedure = protectedProcedure
  .input(ZBulkUpdateInput)
  .output(ZBulkItemsResult)
  .mutation(({ ctx, input }) => bulkUpdateInventoryItems(inventoryContext(ctx), input));
