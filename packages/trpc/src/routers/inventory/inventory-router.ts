import { router } from '../../trpc';
import { bulkCreateProcedure } from './bulk-create';
import { bulkDeleteProcedure } from './bulk-delete';
import { bulkUpdateProcedure } from './bulk-update';
import { createProcedure } from './create';
import { createUnitProcedure } from './create-unit';
import { deleteProcedure } from './delete';
import { deleteUnitProcedure } from './delete-unit';
import { getUnitsProcedure } from './get-units';
import { listItemsProcedure } from './list-items';
import { listUnitsProcedure } from './list-units';
import { renameUnitProcedure } from './rename-unit';
import { updateProcedure } from './update';

/**
 * The seven item procedures of docs/system.md 4.4, the three that manage the units holding them,
 * and the paginated reads of a property too big for getUnits; shapes in docs/inventory-api.md.
 */
export const inventoryRouter = router({
  getUnits: getUnitsProcedure,
  listUnits: listUnitsProcedure,
  listItems: listItemsProcedure,
  create: createProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
  bulkCreate: bulkCreateProcedure,
  bulkUpdate: bulkUpdateProcedure,
  bulkDelete: bulkDeleteProcedure,
  createUnit: createUnitProcedure,
  renameUnit: renameUnitProcedure,
  deleteUnit: deleteUnitProcedure,
});
