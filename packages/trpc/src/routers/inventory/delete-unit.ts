import { ZDeleteUnitInput, ZDeleteUnitResult } from '@staging/contracts/inventory';
import { deleteInventoryUnit } from '@staging/services/inventory/delete-unit';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.deleteUnit (mutation): CONFLICT with `itemCount` unless the caller expects that many items to go. */
export const deleteUnitProcedure = protectedProcedure
  .input(ZDeleteUnitInput)
  .output(ZDeleteUnitResult)
  .mutation(({ ctx, input }) => deleteInventoryUnit(inventoryContext(ctx), input));
