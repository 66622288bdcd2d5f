import { ZAgentPropertyPage, ZListPropertiesInput } from '@staging/contracts/property';
import { listAgentProperties } from '@staging/services/images/agent-properties';
import { protectedProcedure } from '../../trpc';

/** property.list (query): the caller's owned and assigned properties (all for an admin). */
export const listPropertiesProcedure = protectedProcedure
  .input(ZListPropertiesInput)
  .output(ZAgentPropertyPage)
  .query(({ ctx, input }) => listAgentProperties(ctx.deps.db, ctx.actor, input));
