import type { AttemptStatus } from './attempt-states';
import type { JobStatus } from './staging-states';

/**
 * Where a staging job stands for the agent: the job status until it succeeds, then the review of
 * its result, because "done" means nothing to an agent once the variant is approved or rejected.
 * TAKEN_DOWN: the result was approved (published) and later rejected, which takes it off the
 * public page; an agent reads that differently from a result never published.
 * REMOVED: the result is gone without a rejection (its original photo was deleted).
 */
export const JOB_OUTCOMES = [
  'PENDING',
  'PROCESSING',
  'RETRYING',
  'CANCEL_REQUESTED',
  'PENDING_REVIEW',
  'APPROVED',
  'REJECTED',
  'TAKEN_DOWN',
  'REMOVED',
  'CANCELED',
  'FAILED',
] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/** Review states of a staged image; an original has none, and a rejected variant is deleted. */
export const REVIEW_STATUSES = ['PENDING_REVIEW', 'APPROVED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The review facts {@link jobOutcome} needs about a job's result. */
export interface ResultReview {
  /** reviewStatus of the result image while it exists, else null. */
  resultReviewStatus: ReviewStatus | null;
  /**
   * The last REJECTED review event of this job (rejections delete the image row): null when none,
   * `afterApproval` when an APPROVED event of the job came before it (a take-down).
   */
  rejection: { afterApproval: boolean } | null;
}

/** The agent-facing outcome of a job from its status and the review of its result. */
export function jobOutcome(status: JobStatus, review: ResultReview): JobOutcome {
  if (status !== 'SUCCESS') return status;
  if (review.resultReviewStatus !== null) return review.resultReviewStatus;
  if (review.rejection === null) return 'REMOVED';
  return review.rejection.afterApproval ? 'TAKEN_DOWN' : 'REJECTED';
}

/**
 * Whether an attempt bought a prediction: BOUGHT once the provider gave it an ID; UNCONFIRMED while
 * a create call may have reached the provider without an answer (CREATING), or when the worker
 * gave up asking (PURCHASE_UNCONFIRMED); NOT_BOUGHT for a reservation that never reached the
 * provider (RESERVED, refused or canceled before creation).
 */
export const ATTEMPT_PURCHASES = ['BOUGHT', 'UNCONFIRMED', 'NOT_BOUGHT'] as const;
export type AttemptPurchase = (typeof ATTEMPT_PURCHASES)[number];

export function attemptPurchase(attempt: { status: AttemptStatus; hasPrediction: boolean; errorCode: string | null }): AttemptPurchase {
  if (attempt.hasPrediction) return 'BOUGHT';
  if (attempt.status === 'CREATING' || attempt.errorCode === 'PURCHASE_UNCONFIRMED') return 'UNCONFIRMED';
  return 'NOT_BOUGHT';
}

/** What a job's attempts bought so far, for cancel and history: counts per {@link AttemptPurchase}. */
export function purchaseSummary(purchases: readonly AttemptPurchase[]): { bought: number; unconfirmed: number } {
  return {
    bought: purchases.filter((p) => p === 'BOUGHT').length,
    unconfirmed: purchases.filter((p) => p === 'UNCONFIRMED').length,
  };
}
