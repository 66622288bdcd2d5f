import { ZCreateUnitInput, ZPropertyUnitRecord } from '@staging/contracts/inventory';
import { createInventoryUnit } from '@staging/services/inventory/create-unit';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.createUnit (mutation). */
export const createUnitProcedure = protectedProcedure
  .input(ZCreateUnitInput)
  .output(ZPropertyUnitRecord)
  .mutation(({ ctx, input }) => createInventoryUnit(inventoryContext(ctx), input));
