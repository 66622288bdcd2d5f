import { ZDeleteItemInput } from '@staging/domain/inventory';
import { deleteInventoryItem } from '@staging/services/inventory/delete-item';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.delete (mutation, 20/60 s). */
export const deleteProcedure = protectedProcedure
  .use(rateLimit('delete', 20))
  .input(ZDeleteItemInput)
  .mutation(({ ctx, input }) => deleteInventoryItem(inventoryContext(ctx), input));
