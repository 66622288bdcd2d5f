import { ZCreateItemInput } from '@staging/domain/inventory';
import { createInventoryItem } from '@staging/services/inventory/create-item';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.create (mutation, 10/60 s). */
export const createProcedure = protectedProcedure
  .use(rateLimit('create', 10))
  .input(ZCreateItemInput)
  .mutation(({ ctx, input }) => createInventoryItem(inventoryContext(ctx), input));
