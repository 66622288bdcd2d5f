import { ZSetNewImagesPublicInput } from '@staging/contracts/property';
import { setNewImagesPublic } from '@staging/services/public-page/set-new-images-public';
import { protectedProcedure } from '../../trpc';
import { publicPageDepsOf } from './public-page-deps';

/** property.setNewImagesPublic (mutation): whether photos uploaded from now on are public at once. */
export const setNewImagesPublicProcedure = protectedProcedure
  .input(ZSetNewImagesPublicInput)
  .output(ZSetNewImagesPublicInput)
  .mutation(({ ctx, input }) => setNewImagesPublic(publicPageDepsOf(ctx.deps), { actor: ctx.actor, ...input }));
