import { ZInventoryItemRecord, ZUpdateItemInput } from '@staging/contracts/inventory';
import { updateInventoryItem } from '@staging/services/inventory/update-item';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.update (mutation). */
export const updateProcedure = protectedProcedure
  .input(ZUpdateItemInput)
  .output(ZInventoryItemRecord)
  .mutation(({ ctx, input }) => updateInventoryItem(inventoryContext(ctx), input));
