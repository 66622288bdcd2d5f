import { router } from '../../trpc';
import { approveStagedVariantProcedure } from './approve-staged-variant';
import { cancelStagingProcedure } from './cancel-staging';
import { getJobProcedure } from './get-job';
import { listJobsProcedure } from './list-jobs';
import { rejectStagedVariantProcedure } from './reject-staged-variant';
import { submitStagingProcedure } from './submit-staging';

/** Staging and review actions of authenticated agents (SPEC.md 4.3, 3.2). */
export const aiRouter = router({
  submitStaging: submitStagingProcedure,
  cancelStaging: cancelStagingProcedure,
  getJob: getJobProcedure,
  listJobs: listJobsProcedure,
  approveStagedVariant: approveStagedVariantProcedure,
  rejectStagedVariant: rejectStagedVariantProcedure,
});
