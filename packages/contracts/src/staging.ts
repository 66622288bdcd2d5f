import { z } from 'zod';
import { ATTEMPT_STATUSES } from '@staging/domain/attempt-states';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { ATTEMPT_PURCHASES, JOB_OUTCOMES, REVIEW_STATUSES } from '@staging/domain/job-outcome';
import { ZRoomType } from '@staging/domain/room-types';
import { JOB_STATUSES } from '@staging/domain/staging-states';
import { MAX_SUBMITTED_STYLE_LENGTH, ZCanonicalStyle } from '@staging/domain/styles';
import { ZEntityId } from './ids';
import { ZAgentImage } from './property';

/** Inputs and answers of the `ai` router: staging submissions, jobs, their history, spend and review. */

/** Most assignments one submission may carry (a listing's photo set, with room to spare). */
const MAX_ASSIGNMENTS_PER_SUBMISSION = 50;

/** One photo to stage: the original, its room type and the submitted style name. */
const ZStagingAssignment = z.strictObject({
  originalImageId: ZEntityId,
  roomType: ZRoomType,
  style: z.string().max(MAX_SUBMITTED_STYLE_LENGTH),
});

/**
 * Input of {@link submitStaging} besides the actor: the one validation of a submission, which the
 * tRPC procedure declares as its input and the use case applies again for its other callers (the
 * legacy bridge).
 */
export const ZSubmitStagingInput = z.strictObject({
  assignments: z.array(ZStagingAssignment).min(1).max(MAX_ASSIGNMENTS_PER_SUBMISSION),
});

export type TStagingAssignment = z.infer<typeof ZStagingAssignment>;

/** Outcome of one assignment (docs/system.md 4.3). */
const ZStagingSubmissionItem = z.strictObject({
  originalImageId: z.string(),
  canonicalStyle: ZCanonicalStyle,
  /**
   * ENQUEUED: the new job. EXISTING: the nonterminal job with the same dedupe key.
   * style_exists: the job that produced the live variant, or null for a migrated v1 variant.
   */
  aiJobId: z.string().nullable(),
  disposition: z.enum(STAGING_DISPOSITIONS),
});
export type StagingSubmissionItem = z.infer<typeof ZStagingSubmissionItem>;

/** The answer of a submission: one item per assignment, in the order given. */
export const ZSubmitStagingResult = z.strictObject({
  items: z.array(ZStagingSubmissionItem),
  /** Shared by the jobs this submission created: ai.listJobs filters by it, ai.cancelSubmission cancels them. */
  submissionId: z.string(),
});
export type SubmitStagingResult = z.infer<typeof ZSubmitStagingResult>;

/** One provider attempt as clients see it. */
const ZStagingAttempt = z.strictObject({
  attemptNumber: z.int(),
  status: z.enum(ATTEMPT_STATUSES),
  providerStatus: z.string().nullable(),
  errorCode: z.string().nullable(),
  costMicrousd: z.int().nullable(),
  /** Whether this attempt bought a prediction, so a cancel can say what was already spent. */
  purchase: z.enum(ATTEMPT_PURCHASES),
});

/** A staging job as clients see it; dates are ISO 8601 strings. */
export const ZStagingJob = z.strictObject({
  aiJobId: z.string(),
  propertyId: z.string(),
  status: z.enum(JOB_STATUSES),
  phase: z.string().nullable(),
  /** The submission (ai.submitStaging call) that made the job; shared by its batch. Null for older jobs. */
  submissionId: z.string().nullable(),
  errorCode: z.string().nullable(),
  originalImageId: z.string().nullable(),
  resultImageId: z.string().nullable(),
  canonicalStyle: ZCanonicalStyle.nullable(),
  roomType: ZRoomType.nullable(),
  attempts: z.array(ZStagingAttempt),
  timings: z.strictObject({
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    completedAt: z.iso.datetime().nullable(),
    cancelRequestedAt: z.iso.datetime().nullable(),
    canceledAt: z.iso.datetime().nullable(),
    /** Created to finished, or to now while the job is open. */
    elapsedMs: z.number().nonnegative(),
  }),
  /**
   * Sum of the attempts' estimates in micro-US-dollars; null when no attempt has one (unset prices
   * mean no estimate is shown, docs/system.md 2.9). Telemetry only, never a charge.
   */
  costEstimateMicrousd: z.int().nullable(),
  /**
   * Where the job stands among the jobs waiting for a paid start (phase WAITING_FOR_START_SLOT):
   * 1 = next, and when it should start if nothing ahead of it leaves. Null for every other job,
   * and when the line cannot be read (the job still waits its turn).
   */
  placeInLine: z.strictObject({ position: z.int().positive(), expectedStartAt: z.iso.datetime() }).nullable(),
});
export type StagingJobDto = z.infer<typeof ZStagingJob>;

/** One page of {@link listStagingJobs}. */
export const ZStagingJobPage = z.strictObject({
  items: z.array(ZStagingJob),
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type StagingJobPage = z.infer<typeof ZStagingJobPage>;

export const MAX_LIST_LIMIT = 100;

export const ZJobIdInput = z.strictObject({ aiJobId: ZEntityId });

/** ai.cancelSubmission: the submission whose open jobs to cancel, and the jobs it asked to cancel. */
export const ZCancelSubmissionInput = z.strictObject({ submissionId: ZEntityId });
export const ZCancelSubmissionResult = z.strictObject({ items: z.array(ZStagingJob) });

export const ZListJobsInput = z.strictObject({
  propertyId: ZEntityId.optional(),
  /** The jobs of one submission (its submitStaging answer's submissionId). */
  submissionId: ZEntityId.optional(),
  statuses: z.array(z.enum(JOB_STATUSES)).min(1).max(JOB_STATUSES.length).optional(),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(20),
  // Cursors are base64url tokens handed out by the previous page.
  cursor: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/).optional(),
});

export type ListJobsInput = z.infer<typeof ZListJobsInput>;

/** An image of a history row: enough to draw a thumbnail at its true shape, name it and open it. */
const ZHistoryImage = z.strictObject({
  id: z.string(),
  url: z.string(),
  width: z.int(),
  height: z.int(),
  /** The name of the file it was uploaded from; null for results and photos stored before names were kept. */
  fileName: z.string().nullable(),
});
export type HistoryImageDto = z.infer<typeof ZHistoryImage>;

/** A staging job with what an agent needs to read its history without opening anything. */
const ZJobHistoryItem = z.strictObject({
  ...ZStagingJob.shape,
  /** The status, or once SUCCESS the review of the result (docs/decisions/web.md "Job history"). */
  outcome: z.enum(JOB_OUTCOMES),
  propertyTitle: z.string(),
  /** Null once the original photo was deleted. */
  original: ZHistoryImage.nullable(),
  /** Null until the job succeeds, and again once the result is rejected or taken down. */
  result: ZHistoryImage.nullable(),
  /** When the result was approved or rejected; null while nobody reviewed it. */
  reviewedAt: z.iso.datetime().nullable(),
  /** The reviewer's reason for a rejection or take-down, when one was given. */
  rejectionReason: z.string().nullable(),
});
export type JobHistoryItemDto = z.infer<typeof ZJobHistoryItem>;

export const ZJobHistoryPage = z.strictObject({ items: z.array(ZJobHistoryItem), nextCursor: z.string().nullable() });
export type JobHistoryPage = z.infer<typeof ZJobHistoryPage>;

const ZCountedDay = z.strictObject({
  /** `YYYY-MM-DD`, the current UTC day. */
  day: z.iso.date(),
  /** Next UTC midnight, when the count starts again and parked jobs resume. */
  resetsAt: z.iso.datetime(),
  /** Attempts whose create call was sent today (packages/domain/src/daily-purchase-cap.ts). */
  purchases: z.int().nonnegative(),
});

/**
 * Today's purchases against AI_DAILY_PURCHASE_CAP. Account-wide for every viewer, because the cap
 * is: it explains why a job waits even when the agent's own properties bought little.
 */
export const ZDailyPurchases = z.union([
  z.strictObject({ ...ZCountedDay.shape, cap: z.null(), alertThreshold: z.null() }),
  z.strictObject({
    ...ZCountedDay.shape,
    cap: z.int().nonnegative(),
    /** Purchases at which the worker alerts (80 % of the cap). */
    alertThreshold: z.int().nonnegative(),
  }),
]);
export type DailyPurchasesDto = z.infer<typeof ZDailyPurchases>;

const ZMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);

/** Spend figures of one month: of one property, or summed over the caller's properties. */
const ZSpendFigures = z.strictObject({
  /** Sum of the recorded attempt estimates in micro-US-dollars. */
  estimateMicrousd: z.int(),
  /** Attempts that bought (or may have bought) a prediction. */
  attempts: z.int().nonnegative(),
  /** Of those, attempts recorded without a price (AI_STAGING_COST_MICROUSD_* unset then). */
  attemptsWithoutEstimate: z.int().nonnegative(),
});
export type SpendFigures = z.infer<typeof ZSpendFigures>;

/** One property's staging spend in one calendar month (UTC). Estimates, never charges. */
const ZSpendRow = z.strictObject({
  /** `YYYY-MM`, UTC. */
  month: ZMonth,
  propertyId: z.string(),
  propertyTitle: z.string(),
  ...ZSpendFigures.shape,
});
export type SpendRowDto = z.infer<typeof ZSpendRow>;

/** One month's spend over every property the caller may manage. */
const ZSpendMonth = z.strictObject({
  month: ZMonth,
  ...ZSpendFigures.shape,
  /** More properties spent in this month than `rows` lists; ai.spendByProperty pages through all. */
  hasMoreProperties: z.boolean(),
});

export const ZSpendSummary = z.strictObject({
  /** Always 'estimate': the figures come from configured prices, not from an invoice. */
  kind: z.literal('estimate'),
  /** First instant counted (start of the oldest month shown, UTC). */
  since: z.iso.datetime(),
  /** Per month, newest first: the properties that spent most, at most `topPropertiesPerMonth`. */
  rows: z.array(ZSpendRow),
  /** Every month of the window that had spend, newest first, summed over all the caller's properties. */
  months: z.array(ZSpendMonth),
  topPropertiesPerMonth: z.int().positive(),
  today: ZDailyPurchases,
});
export type SpendSummaryDto = z.infer<typeof ZSpendSummary>;

export const ZSpendByPropertyPage = z.strictObject({
  month: ZMonth,
  /** The month's properties by estimate, largest first. */
  items: z.array(ZSpendRow),
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SpendByPropertyPage = z.infer<typeof ZSpendByPropertyPage>;

export const MAX_SPEND_MONTHS = 24;

export const ZSpendSummaryInput = z.strictObject({ months: z.number().int().min(1).max(MAX_SPEND_MONTHS).default(6) });

export const SPEND_PAGE_LIMITS = { defaultLimit: 50, maxLimit: 100 } as const;

export const ZSpendByPropertyInput = z.strictObject({
  month: ZMonth,
  limit: z.number().int().min(1).max(SPEND_PAGE_LIMITS.maxLimit).default(SPEND_PAGE_LIMITS.defaultLimit),
  cursor: z.string().max(200).optional(),
});
export type SpendByPropertyInput = z.infer<typeof ZSpendByPropertyInput>;

export const ZStartLineSummary = z.strictObject({
  /** The caller's own jobs waiting for a paid start slot, counted up to START_LINE_COUNT_CAP. */
  waiting: z.int().nonnegative(),
  /** True when there may be more than `waiting`. */
  isLowerBound: z.boolean(),
  /** The first of them in line; null when none waits or Redis cannot be read. */
  next: z.strictObject({ position: z.int().positive(), expectedStartAt: z.iso.datetime() }).nullable(),
});
export type StartLineSummary = z.infer<typeof ZStartLineSummary>;

export const ZApproveVariantInput = z.strictObject({ imageId: ZEntityId });

export const ZApproveVariantResult = z.strictObject({
  image: ZAgentImage,
  /** False when the variant was already APPROVED: nothing was written. */
  changed: z.boolean(),
});
export type ApproveVariantResult = z.infer<typeof ZApproveVariantResult>;

export const MAX_REJECTION_REASON_LENGTH = 500;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const ZRejectVariantInput = z.strictObject({
  imageId: ZEntityId,
  reason: z
    .string()
    .trim()
    .max(MAX_REJECTION_REASON_LENGTH)
    // Postgres text cannot hold U+0000; an unpaired surrogate would be altered on the way in.
    .refine((value) => !value.includes('\u0000') && !LONE_SURROGATE.test(value), {
      error: 'Must not contain NUL characters or unpaired surrogates',
    })
    .optional(),
});

export const ZRejectVariantResult = z.strictObject({
  imageId: z.string(),
  aiJobId: z.string().nullable(),
  /** The review status the variant had (APPROVED variants can be taken down the same way). */
  previousReviewStatus: z.enum(REVIEW_STATUSES),
});
export type RejectVariantResult = z.infer<typeof ZRejectVariantResult>;

export const REVIEW_LIST_LIMITS = { defaultLimit: 50, maxLimit: 100 } as const;

export const ZListReviewVariantsInput = z.strictObject({
  reviewStatus: z.enum(REVIEW_STATUSES),
  limit: z.number().int().min(1).max(REVIEW_LIST_LIMITS.maxLimit).default(REVIEW_LIST_LIMITS.defaultLimit),
  cursor: z.string().max(200).optional(),
});
export type ListReviewVariantsInput = z.infer<typeof ZListReviewVariantsInput>;

/** A staged variant with what the review page shows beside it. */
const ZReviewVariant = z.strictObject({
  property: z.strictObject({ id: z.string(), title: z.string() }),
  variant: ZAgentImage,
  /** The photo it was made from; null once that original was deleted. */
  original: ZAgentImage.nullable(),
  /** The original's place among its property's originals in gallery order, from 1 ("Photo 2"). */
  originalNumber: z.int().positive().nullable(),
});
export type ReviewVariantDto = z.infer<typeof ZReviewVariant>;

export const ZReviewVariantPage = z.strictObject({ items: z.array(ZReviewVariant), nextCursor: z.string().nullable() });
export type ReviewVariantPage = z.infer<typeof ZReviewVariantPage>;

export const ZPendingReviewCount = z.strictObject({
  /** Variants waiting for the caller's review, counted up to REVIEW_COUNT_CAP. */
  pending: z.int().nonnegative(),
  /** True when there may be more than `pending`. */
  isLowerBound: z.boolean(),
});
export type PendingReviewCount = z.infer<typeof ZPendingReviewCount>;
