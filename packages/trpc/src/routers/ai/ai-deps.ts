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
  return { db: deps.db, searchQueue: deps.searchQueue, logger: deps.logger, clock: { now: deps.clock } };
}

/**
 * Per-user limits of the ai mutations in one bucket (docs/decisions.md "ai procedure rate
 * limits"): submission buys predictions, so it is the tightest.
 */
export const AI_RATE_LIMITS = {
  submitStaging: 20,
  cancelStaging: 60,
  approveStagedVariant: 60,
  rejectStagedVariant: 60,
} as const;

export const AI_RATE_LIMIT_BUCKET = 'ai';
