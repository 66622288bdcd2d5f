import { ZCreateUnitInput, ZDeleteUnitInput, ZRenameUnitInput } from '@staging/domain/inventory';
import { createInventoryUnit } from '@staging/services/inventory/create-unit';
import { deleteInventoryUnit } from '@staging/services/inventory/delete-unit';
import { renameInventoryUnit } from '@staging/services/inventory/rename-unit';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.createUnit (mutation). */
export const createUnitProcedure = protectedProcedure
  .input(ZCreateUnitInput)
  .mutation(({ ctx, input }) => createInventoryUnit(inventoryContext(ctx), input));

/** inventory.renameUnit (mutation). */
export const renameUnitProcedure = protectedProcedure
  .input(ZRenameUnitInput)
  .mutation(({ ctx, input }) => renameInventoryUnit(inventoryContext(ctx), input));

/** inventory.deleteUnit (mutation): CONFLICT with `itemCount` unless the caller expects that many items to go. */
export const deleteUnitProcedure = protectedProcedure
  .input(ZDeleteUnitInput)
  .mutation(({ ctx, input }) => deleteInventoryUnit(inventoryContext(ctx), input));
