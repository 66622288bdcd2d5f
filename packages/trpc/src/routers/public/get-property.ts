import { z } from 'zod';
import { ZEntityId } from '@staging/services/images/ids';
import { getPublicProperty, ZPublicProperty } from '@staging/services/public/get-public-property';
import { publicProcedure } from '../../trpc';

/** public.getProperty (query, anonymous): originals and APPROVED variants, labelled and linked. */
export const getPublicPropertyProcedure = publicProcedure
  .input(z.strictObject({ propertyId: ZEntityId }))
  .output(ZPublicProperty)
  .query(({ ctx, input }) => getPublicProperty(ctx.deps.db, input.propertyId));
