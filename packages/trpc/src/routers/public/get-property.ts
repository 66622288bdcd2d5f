import { ZGetPublicPropertyInput, ZPublicProperty } from '@staging/contracts/public';
import { getPublicProperty } from '@staging/services/public/get-public-property';
import { publicProcedure } from '../../trpc';

/** public.getProperty (query, anonymous): originals and APPROVED variants, labelled and linked. */
export const getPublicPropertyProcedure = publicProcedure
  .input(ZGetPublicPropertyInput)
  .output(ZPublicProperty)
  .query(({ ctx, input }) => getPublicProperty(ctx.deps.db, input.propertyId));
