import { ZBulkDeleteInput, ZBulkDeleteResult } from '@staging/contracts/inventory';
import { bulkDeleteInventoryItems } from '@staging/services/inventory/bulk-delete-items';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.bulkDelete (mutation): all ids or none. */
export const bulkDeleteProcedure = protectedProcedure
  .input(ZBulkDeleteInput)
  .output(ZBulkDeleteResult)
  .mutation(({ ctx, input }) => bulkDeleteInventoryItems(inventoryContext(ctx), input));
