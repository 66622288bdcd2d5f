import { ZBulkUpdateInput } from '@staging/domain/inventory';
import { bulkUpdateInventoryItems } from '@staging/services/inventory/bulk-update-items';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.bulkUpdate (mutation, 20/60 s): one change applied to every id, all or none. */
export const bulkUpdateProcedure = protectedProcedure
  .use(rateLimit('bulkUpdate', 20))
  .input(ZBulkUpdateInput)
  .mutation(({ ctx, input }) => bulkUpdateInventoryItems(inventoryContext(ctx), input));
