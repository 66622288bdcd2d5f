import { ZGetUnitsInput, ZGetUnitsResult } from '@staging/contracts/inventory';
import { getInventoryUnits } from '@staging/services/inventory/get-units';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.getUnits (query): the property's units with their items. */
export const getUnitsProcedure = protectedProcedure
  .input(ZGetUnitsInput)
  .output(ZGetUnitsResult)
  .query(({ ctx, input }) => getInventoryUnits(inventoryContext(ctx), input));
