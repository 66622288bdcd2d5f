import { ZAgentProperty, ZGetPropertyInput } from '@staging/contracts/property';
import { getAgentProperty } from '@staging/services/images/agent-properties';
import { protectedProcedure } from '../../trpc';

/** property.get (query): one manageable property with every image and its review state. */
export const getPropertyProcedure = protectedProcedure
  .input(ZGetPropertyInput)
  .output(ZAgentProperty)
  .query(({ ctx, input }) => getAgentProperty(ctx.deps.db, ctx.actor, input.propertyId));
