import { ZDeleteItemInput, ZInventoryItemRecord } from '@staging/contracts/inventory';
import { deleteInventoryItem } from '@staging/services/inventory/delete-item';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.delete (mutation). */
export const deleteProcedure = protectedProcedure
  .input(ZDeleteItemInput)
  .output(ZInventoryItemRecord)
  .mutation(({ ctx, input }) => deleteInventoryItem(inventoryContext(ctx), input));
