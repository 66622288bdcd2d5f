import { ZListUnitsInput, ZListUnitsResult } from '@staging/contracts/inventory';
import { listInventoryUnits } from '@staging/services/inventory/list-units';
import { protectedProcedure } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.listUnits (query): one page of the property's units. */
export const listUnitsProcedure = protectedProcedure
  .input(ZListUnitsInput)
  .output(ZListUnitsResult)
  .query(({ ctx, input }) => listInventoryUnits(inventoryContext(ctx), input));
