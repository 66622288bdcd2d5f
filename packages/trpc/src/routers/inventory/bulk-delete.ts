import { ZBulkDeleteInput } from '@staging/domain/inventory';
import { bulkDeleteInventoryItems } from '@staging/services/inventory/bulk-delete-items';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.bulkDelete (mutation, 20/60 s): all ids or none. */
export const bulkDeleteProcedure = protectedProcedure
  .use(rateLimit('bulkDelete', 20))
  .input(ZBulkDeleteInput)
  .mutation(({ ctx, input }) => bulkDeleteInventoryItems(inventoryContext(ctx), input));
