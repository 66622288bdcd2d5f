import { ZStagingEvent } from '@staging/db/change-notifications';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { zEventStream } from '../../event-stream-output';
import { protectedProcedure } from '../../trpc';

/**
 * ai.stagingEvents (subscription, Server-Sent Events): what changed in the staging jobs and images
 * of the properties the agent may read (property.get's rule), so a page refetches only then. Each
 * stream begins with a resync and carries ids and states only; docs/decisions/web.md "Live status by
 * LISTEN/NOTIFY".
 */
export const stagingEventsProcedure = protectedProcedure.output(zEventStream(ZStagingEvent)).subscription(({ ctx, signal }) => {
  // Over HTTP the signal is the request's; a server-side caller must bring one, or a stream with
  // no event to wake it would never notice that its reader left.
  if (signal === undefined) throw new AppError(ErrorCode.BAD_REQUEST, 'A live stream needs an abort signal');
  return ctx.deps.stagingEvents.subscribe(ctx.actor, signal);
});
