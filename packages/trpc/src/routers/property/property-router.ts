import { router } from '../../trpc';
import { getPropertyProcedure } from './get';
import { listPropertiesProcedure } from './list';

export const propertyRouter = router({
  list: listPropertiesProcedure,
  get: getPropertyProcedure,
});
