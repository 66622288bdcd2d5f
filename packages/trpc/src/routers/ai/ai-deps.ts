import type { ReviewDeps } from '@staging/services/review/review-deps';
import type { JobReadDeps, StagingProducerDeps } from '@staging/services/staging/staging-deps';
import type { TrpcDeps } from '../../context';

/** The staging use cases' deps from the tRPC deps. */
export function stagingDepsOf(deps: TrpcDeps): StagingProducerDeps {
  return {
    db: deps.db,
    stagingQueue: deps.stagingQueue,
    logger: deps.logger,
    clock: deps.clock,
    staging: deps.staging,
  };
}

/** The job reads' deps: the staging deps and the queue store holding the start line. */
export function jobReadDepsOf(deps: TrpcDeps): JobReadDeps {
  return { ...stagingDepsOf(deps), redis: deps.redis };
}

export function reviewDepsOf(deps: TrpcDeps): ReviewDeps {
  return { db: deps.db, searchQueue: deps.searchQueue, logger: deps.logger, clock: deps.clock, publicListingChanged: deps.publicListingChanged };
}
