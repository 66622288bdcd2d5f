import { ZUpdateItemInput } from '@staging/domain/inventory';
import { updateInventoryItem } from '@staging/services/inventory/update-item';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.update (mutation, 20/60 s). */
export const updateProcedure = protectedProcedure
  .use(rateLimit('update', 20))
  .input(ZUpdateItemInput)
  .mutation(({ ctx, input }) => updateInventoryItem(inventoryContext(ctx), input));
