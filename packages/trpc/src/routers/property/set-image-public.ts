import { ZAgentImage, ZSetImagePublicInput } from '@staging/contracts/property';
import { setImagePublic } from '@staging/services/public-page/set-image-public';
import { protectedProcedure } from '../../trpc';
import { publicPageDepsOf } from './public-page-deps';

/** property.setImagePublic (mutation): shows an original on the public page or hides it. */
export const setImagePublicProcedure = protectedProcedure
  .input(ZSetImagePublicInput)
  .output(ZAgentImage)
  .mutation(({ ctx, input }) => setImagePublic(publicPageDepsOf(ctx.deps), { actor: ctx.actor, ...input }));
