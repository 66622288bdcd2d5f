import type { ReviewDeps } from '@staging/services/review/review-deps';
import type { StagingProducerDeps } from '@staging/services/staging/staging-deps';
import type { TrpcDeps } from '../../context';

/** The staging use cases' deps from the tRPC deps (the clock becomes a Clock object). */
export function stagingDepsOf(deps: TrpcDeps): StagingProducerDeps {
  return {
    db: deps.db,
    stagingQueue: deps.stagingQueue,
    logger: deps.logger,
    clock: { now: deps.clock },
    staging: deps.staging,
  };
}

export function reviewDepsOf(deps: TrpcDeps): ReviewDeps {
  return { db: deps.db, searchQueue: deps.searchQueue, logger: deps.logger, clock: { now: deps.clock }, publicListingChanged: deps.publicListingChanged };
}
