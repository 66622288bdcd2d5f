import { ZGetUnitsInput } from '@staging/domain/inventory';
import { getInventoryUnits } from '@staging/services/inventory/get-units';
import { protectedProcedure, rateLimit } from '../../trpc';
import { inventoryContext } from './use-case-context';

/** inventory.getUnits (query, 20/60 s): the property's units with their items. */
export const getUnitsProcedure = protectedProcedure
  .use(rateLimit('getUnits', 20))
  .input(ZGetUnitsInput)
  .query(({ ctx, input }) => getInventoryUnits(inventoryContext(ctx), input));
