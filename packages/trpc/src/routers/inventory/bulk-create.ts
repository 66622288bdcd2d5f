import { ZBulkCreateInput } from '@staging/domain/inventory';
import { bulkCreateInventoryItems } from '@staging/services/inventory/bulk-create-items';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.bulkCreate (mutation, 20/60 s): 1..500 items, all or none. */
export const bulkCreateProcedure = protectedProcedure
  .use(rateLimit('bulkCreate', 20))
  .input(ZBulkCreateInput)
  .mutation(({ ctx, input }) => bulkCreateInventoryItems(inventoryContext(ctx), input));
