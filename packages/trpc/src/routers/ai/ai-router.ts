import { router } from '../../trpc';
import { approveStagedVariantProcedure } from './approve-staged-variant';
import { cancelStagingProcedure, cancelSubmissionProcedure } from './cancel-staging';
import { getJobProcedure } from './get-job';
import { jobHistoryProcedure } from './job-history';
import { listJobsProcedure } from './list-jobs';
import { pendingReviewCountProcedure } from './pending-review-count';
import { rejectStagedVariantProcedure } from './reject-staged-variant';
import { reviewVariantsProcedure } from './review-variants';
import { spendByPropertyProcedure } from './spend-by-property';
import { spendSummaryProcedure } from './spend-summary';
import { startLineProcedure } from './start-line';
import { stagingEventsProcedure } from './staging-events';
import { submitStagingProcedure } from './submit-staging';

/** Staging and review actions of authenticated agents (docs/system.md 4.3, 3.2). */
export const aiRouter = router({
  submitStaging: submitStagingProcedure,
  cancelStaging: cancelStagingProcedure,
  cancelSubmission: cancelSubmissionProcedure,
  getJob: getJobProcedure,
  listJobs: listJobsProcedure,
  jobHistory: jobHistoryProcedure,
  spendSummary: spendSummaryProcedure,
  spendByProperty: spendByPropertyProcedure,
  stagingEvents: stagingEventsProcedure,
  reviewVariants: reviewVariantsProcedure,
  pendingReviewCount: pendingReviewCountProcedure,
  startLine: startLineProcedure,
  approveStagedVariant: approveStagedVariantProcedure,
  rejectStagedVariant: rejectStagedVariantProcedure,
});
