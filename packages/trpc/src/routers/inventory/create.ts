import { ZCreateItemInput, ZInventoryItemRecord } from '@staging/contracts/inventory';
import { createInventoryItem } from '@staging/services/inventory/create-item';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.create (mutation). */
export const createProcedure = protectedProcedure
  .input(ZCreateItemInput)
  .output(ZInventoryItemRecord)
  .mutation(({ ctx, input }) => createInventoryItem(inventoryContext(ctx), input));
