import { ZPropertyUnitRecord, ZRenameUnitInput } from '@staging/contracts/inventory';
import { renameInventoryUnit } from '@staging/services/inventory/rename-unit';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.renameUnit (mutation). */
export const renameUnitProcedure = protectedProcedure
  .input(ZRenameUnitInput)
  .output(ZPropertyUnitRecord)
  .mutation(({ ctx, input }) => renameInventoryUnit(inventoryContext(ctx), input));
