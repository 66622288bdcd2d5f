import { router } from '../../trpc';
import { getPropertyProcedure } from './get';
import { listPropertiesProcedure } from './list';
import { setCoverProcedure } from './set-cover';
import { setImagePublicProcedure } from './set-image-public';
import { setNewImagesPublicProcedure } from './set-new-images-public';

export const propertyRouter = router({
  list: listPropertiesProcedure,
  get: getPropertyProcedure,
  setImagePublic: setImagePublicProcedure,
  setCover: setCoverProcedure,
  setNewImagesPublic: setNewImagesPublicProcedure,
});
