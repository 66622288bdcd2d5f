import { createHash } from 'node:crypto';
import type { Prisma } from '@staging/db/client';
import { validateOutputMetadata } from '@staging/domain/output-validation';
import type { RequestedOutput } from '@staging/domain/output-validation';
import type { ProviderAspectRatio, ProviderOutputFormat } from '@staging/domain/provider-values';
import { isRoomType } from '@staging/domain/room-types';
import type { RoomType } from '@staging/domain/room-types';
import { isCanonicalStyle, STYLE_LABELS } from '@staging/domain/styles';
import type { CanonicalStyle } from '@staging/domain/styles';
import { ObjectNotFoundError } from '@staging/platform/storage';
import type { Prediction } from '@staging/provider/provider-wire';
import { failAttempt, failureOf } from './attempt-failure';
import { moveAttempt, recordAttemptOutput } from '@staging/services/staging/ledger/attempt-moves';
import { moveJob } from '@staging/services/staging/ledger/job-moves';
import type { ReadJob } from '@staging/services/staging/ledger/job-moves';
import { requireChanged, transactIfCurrent } from '@staging/services/staging/ledger/ledger-transaction';
import { predictionIdOf } from '@staging/services/staging/ledger/staging-job-reads';
import type { AttemptRow, StagedJobRow } from '@staging/services/staging/ledger/staging-job-reads';
import { downloadOutput, OutputDownloadError } from './output-download';
import { inspectOutput } from './output-inspect';
import { wait } from './staging-deps';
import type { StagingDeps, StagingRun, StepResult } from './staging-deps';

const FILE_EXTENSIONS: Record<ProviderOutputFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };
const CONTENT_TYPES: Record<ProviderOutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** Deterministic, so a re-run after a crash overwrites the same object instead of leaking one. */
export function stagedObjectKey(
  propertyId: string,
  jobId: string,
  attemptNumber: number,
  format: ProviderOutputFormat,
): string {
  return `staged/${propertyId}/${jobId}/${attemptNumber}.${FILE_EXTENSIONS[format]}`;
}

/**
 * Download (20 MiB ceiling) → validate → record the object key → upload → finalize. The key is
 * written on the attempt before the upload, so an object in storage is always traceable to its
 * attempt: a crash after the upload finalizes from storage on the next delivery, and a cancel
 * sends the key to the deletion outbox.
 */
export async function handleOutput(...args: OutputStepArgs): Promise<StepResult> {
  return args[0].outputSlots.run(() => processOutput(...args));
}

type OutputStepArgs = [
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
  attempt: AttemptRow,
  prediction: Prediction | null,
];

/**
 * What this job asked the provider for. The text columns hold values checked against the
 * provider's lists when the job was submitted; checked again against today's lists, a release
 * that narrows them would fail jobs already bought.
 */
function requestedOutput(staging: StagedJobRow['staging']): RequestedOutput {
  return {
    aspectRatio: staging.aspectRatio as ProviderAspectRatio,
    outputFormat: staging.outputFormat as ProviderOutputFormat,
  };
}

async function processOutput(...[deps, run, job, attempt, prediction]: OutputStepArgs): Promise<StepResult> {
  const staging = job.staging;
  const requested = requestedOutput(staging);
  let bytes: Buffer | null = null;
  if (attempt.outputObjectKey !== null) {
    try {
      bytes = await deps.storage.getObject(attempt.outputObjectKey);
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
    }
  }
  const fromStorage = bytes !== null;
  if (bytes === null) {
    if (prediction === null) prediction = await deps.provider.getPrediction(predictionIdOf(attempt));
    const downloaded = await download(deps, run, job, attempt, prediction);
    if (!Buffer.isBuffer(downloaded)) return downloaded;
    bytes = downloaded;
  }
  await deps.boundary('after-download', run.jobId);
  // The output step is the longest of a job; it lets descriptions go first between its parts too.
  await deps.backgroundTurn();

  const validation = validateOutputMetadata(await inspectOutput(bytes), requested);
  if (!validation.ok) {
    return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
      errorCode: validation.errorCode,
      message: validation.message,
      discardObjectKey: fromStorage ? attempt.outputObjectKey : null,
    });
  }
  deps.stagingLog('output_validated', run.jobId, {
    attemptId: attempt.id,
    attemptNumber: attempt.attemptNumber,
    bytes: bytes.length,
    format: validation.format,
    width: validation.width,
    height: validation.height,
  });
  const objectKey = stagedObjectKey(staging.propertyId, run.jobId, attempt.attemptNumber, validation.format);
  const contentType = CONTENT_TYPES[validation.format];
  const output = {
    bytes: bytes.length,
    width: validation.width,
    height: validation.height,
    format: validation.format,
  };

  if (!fromStorage) {
    // A cancel that arrived during the download wins before anything is stored: the key is
    // recorded only while the job can still succeed, checked by the same statement.
    const recorded = await recordAttemptOutput(deps.db, attempt.id, {
      outputObjectKey: objectKey,
      downloadBytes: output.bytes,
      outputWidth: output.width,
      outputHeight: output.height,
      outputFormat: output.format,
    });
    if (!recorded) return 'continue';
    await deps.backgroundTurn();
    await deps.storage.putObject(objectKey, bytes, contentType);
    await deps.boundary('after-upload', run.jobId);
    await deps.backgroundTurn();
  }
  return finalize(
    deps,
    run,
    job,
    { ...attempt, outputObjectKey: objectKey },
    {
      ...output,
      objectKey,
      contentType,
      checksum: createHash('sha256').update(bytes).digest('hex'),
    },
  );
}

async function download(
  deps: StagingDeps,
  run: StagingRun,
  job: ReadJob,
  attempt: AttemptRow,
  prediction: Prediction,
): Promise<Buffer | StepResult> {
  const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
  if (typeof url !== 'string' || url === '') {
    return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
      errorCode: 'OUTPUT_NOT_IMAGE',
      message: 'the prediction succeeded without an output file',
    });
  }
  try {
    return await downloadOutput(url, { timeoutMs: deps.settings.timings.downloadTimeoutMs });
  } catch (error) {
    if (!(error instanceof OutputDownloadError)) throw error;
    if (error.kind === 'too_large') {
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', failureOf('OUTPUT_TOO_LARGE', error));
    }
    const completedAt = (attempt.providerCompletedAt ?? new Date()).getTime();
    if (!error.retryable || Date.now() - completedAt > deps.settings.timings.downloadGiveUpMs) {
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', failureOf('OUTPUT_DOWNLOAD_FAILED', error));
    }
    deps.logger.warn(
      { jobId: run.jobId, attemptId: attempt.id, kind: error.kind },
      'output download failed; retrying later',
    );
    return wait(deps.settings.timings.transientBackoffMs, 'output-download-retry');
  }
}

interface StoredOutput {
  objectKey: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  format: ProviderOutputFormat;
  checksum: string;
}

/**
 * The job's style and room type. Both columns are Postgres enums, so the check never fails on a
 * row the database gave; the ledger's JSON read only types them as text.
 */
function imageVocabulary(staging: StagedJobRow['staging']): { canonicalStyle: CanonicalStyle; roomType: RoomType } {
  const { canonicalStyle, canonicalRoomType } = staging;
  if (!isCanonicalStyle(canonicalStyle) || !isRoomType(canonicalRoomType)) {
    throw new Error(`staging job has an unknown style ${canonicalStyle} or room type ${canonicalRoomType}`);
  }
  return { canonicalStyle, roomType: canonicalRoomType };
}

/** The private PENDING_REVIEW image of a staging result, with the provider inputs that made it. */
function stagedImageData(
  run: StagingRun,
  staging: StagedJobRow['staging'],
  originalId: string,
  attempt: AttemptRow,
  output: StoredOutput,
): Prisma.PropertyImageUncheckedCreateInput {
  const { canonicalStyle, roomType } = imageVocabulary(staging);
  return {
    propertyId: staging.propertyId,
    objectKey: output.objectKey,
    contentType: output.contentType,
    width: output.width,
    height: output.height,
    bytes: output.bytes,
    isMain: false,
    isStyled: true,
    styledFromId: originalId,
    style: STYLE_LABELS.en[canonicalStyle] ?? canonicalStyle,
    canonicalStyle,
    roomType,
    reviewStatus: 'PENDING_REVIEW',
    aiJobId: run.jobId,
    providerInputs: {
      model: staging.providerModel,
      promptVersion: staging.promptVersion,
      prompt: staging.prompt,
      quality: staging.quality,
      aspectRatio: staging.aspectRatio,
      outputFormat: staging.outputFormat,
      outputCompression: staging.outputCompression,
      roomType: staging.canonicalRoomType,
      canonicalStyle: staging.canonicalStyle,
    },
    providerPredictionId: attempt.providerPredictionId,
    outputBytes: output.bytes,
    outputWidth: output.width,
    outputHeight: output.height,
    outputFormat: output.format,
    outputChecksum: output.checksum,
  };
}

/** The `completed` staging log line, with where the job's time went. */
function logCompleted(deps: StagingDeps, run: StagingRun, job: StagedJobRow, attempt: AttemptRow, imageId: string, now: Date): void {
  const providerDone = attempt.providerCompletedAt?.getTime() ?? null;
  const created = attempt.predictionCreatedAt?.getTime() ?? null;
  deps.stagingLog('completed', run.jobId, {
    attemptId: attempt.id,
    attemptNumber: attempt.attemptNumber,
    predictionId: attempt.providerPredictionId ?? '',
    imageId,
    totalMs: now.getTime() - job.createdAt.getTime(),
    queueWaitMs: job.startedAt === null ? null : job.startedAt.getTime() - job.createdAt.getTime(),
    providerMs: providerDone !== null && created !== null ? providerDone - created : null,
    finalizeMs: providerDone === null ? null : now.getTime() - providerDone,
  });
}

/**
 * One transaction: job SUCCESS (only from PROCESSING, so a cancel committed first wins and the
 * stored object is discarded by the cancel path), the private PENDING_REVIEW image, the job's
 * resultImageId and the attempt SUCCEEDED.
 */
async function finalize(
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
  attempt: AttemptRow,
  output: StoredOutput,
): Promise<StepResult> {
  const staging = job.staging;
  const original = staging.original;
  if (original === null) {
    return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
      errorCode: 'ORIGINAL_MISSING',
      message: 'the original photo was deleted before the result was finalized',
      discardObjectKey: output.objectKey,
    });
  }
  const now = new Date();
  let imageId = '';
  const applied = await transactIfCurrent(deps.db, async (tx) => {
    requireChanged(
      await moveJob(tx, run.jobId, 'SUCCEEDED', {
        completedAt: now,
        phase: null,
        errorCode: null,
        errorMessage: null,
      }),
      'job',
    );
    const image = await tx.propertyImage.create({
      data: stagedImageData(run, staging, original.id, attempt, output),
      select: { id: true },
    });
    imageId = image.id;
    await tx.aiRoomStagingJob.update({ where: { aiJobId: run.jobId }, data: { resultImageId: image.id } });
    requireChanged(
      await moveAttempt(tx, attempt.id, 'PROVIDER_SUCCEEDED', { endedAt: now }),
      'attempt',
    );
  });
  if (!applied) return 'continue';
  logCompleted(deps, run, job, attempt, imageId, now);
  return 'continue';
}
