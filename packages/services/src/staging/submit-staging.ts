import { randomUUID } from 'node:crypto';
import { ZSubmitStagingInput } from '@staging/contracts/staging';
import type { StagingSubmissionItem, SubmitStagingResult, TStagingAssignment } from '@staging/contracts/staging';
import type { Db } from '@staging/db/client';
import { stagingDedupeKey } from '@staging/domain/dedupe';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { AppError, isAppError } from '@staging/domain/errors';
import type { FieldIssue } from '@staging/domain/errors';
import { fieldIssuesOf } from '@staging/domain/field-issues';
import { isLiveVariantOf } from '@staging/domain/live-variant';
import { PROMPT_VERSION, renderStagingPrompt } from '@staging/domain/prompt';
import type { RoomType } from '@staging/domain/room-types';
import { resolveSubmittedStyle } from '@staging/domain/styles';
import type { StyleResolution } from '@staging/domain/styles';
import { assertCanManageProperty } from '../access/property-access';
import type { Actor } from '../access/property-access';
import { findOpenStagingJob, insertStagingJob } from './ledger/staging-job-inserts';
import type { StagingProducerDeps } from './staging-deps';
import { batchPriority, enqueueStagingJob, withQueueTimeout } from './staging-queue';

export type { StagingProducerDeps } from './staging-deps';

const IMAGE_NOT_FOUND = 'Image not found';

interface PlannedAssignment {
  index: number;
  originalImageId: string;
  propertyId: string;
  roomType: RoomType;
  style: StyleResolution;
}

/**
 * Submits staging assignments (docs/system.md 3.1, 4.3, 7; ARCHITECTURE.md pipeline step 1).
 *
 * Every assignment is validated and authorized before anything is written, so a bad one leaves
 * the others untouched. Then, per assignment, one transaction persists the room type on the
 * original and decides: style_exists (a live variant of the canonical style exists), ENQUEUED (new
 * ai_jobs + ai_room_staging_jobs rows) or EXISTING (the dedupe index already holds a nonterminal job
 * for the key). After commit the queue message is added; if that fails the job stays PENDING and
 * the repair dispatcher adds it later.
 *
 * @throws AppError STAGING_UNAVAILABLE when the kill switch is off (nothing is written),
 *   BAD_REQUEST / LEGACY_STYLE_RETIRED / STYLE_NOT_GENERATABLE for bad input, NOT_FOUND when an
 *   image does not exist or belongs to a property the actor cannot manage.
 */
export async function submitStaging(
  deps: StagingProducerDeps,
  input: { actor: Actor; assignments: readonly TStagingAssignment[] },
): Promise<StagingSubmissionItem[]> {
  return (await submitStagingBatch(deps, input)).items;
}

/** {@link submitStaging}, with the id the jobs it created share. */
export async function submitStagingBatch(
  deps: StagingProducerDeps,
  input: { actor: Actor; assignments: readonly TStagingAssignment[] },
): Promise<SubmitStagingResult> {
  if (deps.staging.enabled !== true) {
    throw new AppError('STAGING_UNAVAILABLE', 'AI room staging is currently unavailable.');
  }
  const parsed = ZSubmitStagingInput.safeParse({ assignments: input.assignments });
  if (!parsed.success) {
    throw new AppError('BAD_REQUEST', 'Invalid staging submission.', {
      issues: fieldIssuesOf(parsed.error.issues),
    });
  }
  const now = deps.clock.now();
  const planned = await planAssignments(deps.db, input.actor, parsed.data.assignments, now, deps.staging.legacyAliasSunsetAt);

  const submissionId = randomUUID();
  const results: StagingSubmissionItem[] = [];
  let enqueued = 0;
  for (const assignment of planned) {
    const outcome = await writeAssignment(deps, input.actor, assignment, submissionId);
    if (outcome.disposition === STAGING_DISPOSITIONS.ENQUEUED || outcome.shouldEnsureQueued) {
      await enqueueAfterCommit(deps, outcome.aiJobId, batchPriority(enqueued));
      enqueued += 1;
    }
    deps.logger.info(
      {
        event: 'ai_room_staging.submitted',
        jobId: outcome.aiJobId,
        disposition: outcome.disposition,
        originalImageId: assignment.originalImageId,
        propertyId: assignment.propertyId,
        roomType: assignment.roomType,
        canonicalStyle: assignment.style.canonicalStyle,
        submittedStyle: assignment.style.submittedStyle,
        legacyStyle: assignment.style.legacyStyle,
        actorUserId: input.actor.id,
      },
      'ai_room_staging.submitted',
    );
    results.push({
      originalImageId: assignment.originalImageId,
      canonicalStyle: assignment.style.canonicalStyle,
      aiJobId: outcome.aiJobId,
      disposition: outcome.disposition,
    });
  }
  return { items: results, submissionId };
}

async function planAssignments(
  db: Db,
  actor: Actor,
  assignments: readonly TStagingAssignment[],
  now: Date,
  sunsetAt: Date,
): Promise<PlannedAssignment[]> {
  const styled = assignments.map((assignment, index) => {
    try {
      return { assignment, style: resolveSubmittedStyle(assignment.style, { now, sunsetAt }) };
    } catch (error) {
      throw withPathPrefix(error, ['assignments', index]);
    }
  });

  const ids = [...new Set(assignments.map((a) => a.originalImageId))];
  const images = await db.propertyImage.findMany({
    where: { id: { in: ids } },
    select: { id: true, propertyId: true, isStyled: true },
  });
  const byId = new Map(images.map((image) => [image.id, image]));
  const authorized = new Set<string>();

  const planned: PlannedAssignment[] = [];
  for (const [index, { assignment, style }] of styled.entries()) {
    const path = ['assignments', index, 'originalImageId'];
    const image = byId.get(assignment.originalImageId);
    if (image === undefined) throw notFound(path);
    if (!authorized.has(image.propertyId)) {
      try {
        await assertCanManageProperty(db, actor, image.propertyId);
      } catch (error) {
        // Same answer as for an image that does not exist, so IDs cannot be probed.
        if (isAppError(error) && error.code === 'NOT_FOUND') throw notFound(path);
        throw error;
      }
      authorized.add(image.propertyId);
    }
    if (image.isStyled) {
      const message = 'Only original photos can be staged, not staged variants.';
      throw new AppError('BAD_REQUEST', message, { issues: [{ path, message }] });
    }
    planned.push({
      index,
      originalImageId: image.id,
      propertyId: image.propertyId,
      roomType: assignment.roomType,
      style,
    });
  }
  return planned;
}

function notFound(path: FieldIssue['path']): AppError {
  return new AppError('NOT_FOUND', IMAGE_NOT_FOUND, { issues: [{ path, message: IMAGE_NOT_FOUND }] });
}

function withPathPrefix(error: unknown, prefix: FieldIssue['path']): unknown {
  if (!isAppError(error)) return error;
  return new AppError(error.code, error.message, {
    issues: (error.issues ?? []).map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })),
  });
}

/** An enqueued or existing job has an id; a live styled variant may have been made without one. */
type WriteOutcome =
  | {
      disposition: typeof STAGING_DISPOSITIONS.ENQUEUED | typeof STAGING_DISPOSITIONS.EXISTING;
      aiJobId: string;
      /** EXISTING job still PENDING: re-adding its message (a no-op when present) heals a lost enqueue. */
      shouldEnsureQueued: boolean;
    }
  | { disposition: typeof STAGING_DISPOSITIONS.STYLE_EXISTS; aiJobId: string | null; shouldEnsureQueued: false };

// A conflict whose holder ended before the re-read leaves nothing to report; the key is free
// then, so the insert is tried again. Two rounds cover one such race; more would need a job to be
// created and finished between two statements of this transaction, repeatedly.
const MAX_INSERT_ROUNDS = 3;

async function writeAssignment(deps: StagingProducerDeps, actor: Actor, a: PlannedAssignment, submissionId: string): Promise<WriteOutcome> {
  const { producer, providerModel, legacyAliasSunsetAt } = deps.staging;
  const now = deps.clock.now();
  const dedupeKey = stagingDedupeKey(a.originalImageId, a.style.canonicalStyle);

  return deps.db.$transaction(
    async (tx) => {
      // Also locks the original's row, which serializes concurrent submissions for the same photo.
      const updated = await tx.$executeRaw`
        UPDATE "property_images" SET "roomType" = ${a.roomType}::"RoomType", "updatedAt" = ${now}
        WHERE "id" = ${a.originalImageId} AND NOT "isStyled"`;
      if (updated === 0) throw notFound(['assignments', a.index, 'originalImageId']);

      // The rule is the domain's, shared with the dashboard's estimate; the query only narrows the rows.
      const variants = await tx.propertyImage.findMany({
        where: { styledFromId: a.originalImageId, canonicalStyle: a.style.canonicalStyle },
        select: { aiJobId: true, isStyled: true, styledFromId: true, canonicalStyle: true, reviewStatus: true },
        orderBy: { createdAt: 'asc' },
      });
      const liveVariant = variants.find((variant) => isLiveVariantOf(variant, a.originalImageId, a.style.canonicalStyle));
      if (liveVariant !== undefined) {
        return { disposition: STAGING_DISPOSITIONS.STYLE_EXISTS, aiJobId: liveVariant.aiJobId, shouldEnsureQueued: false };
      }

      for (let round = 0; round < MAX_INSERT_ROUNDS; round += 1) {
        const aiJobId = await insertStagingJob(
          tx,
          { dedupeKey, propertyId: a.propertyId, requestedByUserId: actor.id, submissionId, now },
          {
            originalImageId: a.originalImageId,
            propertyId: a.propertyId,
            requestedByUserId: actor.id,
            canonicalRoomType: a.roomType,
            canonicalStyle: a.style.canonicalStyle,
            submittedStyle: a.style.submittedStyle,
            legacyStyle: a.style.legacyStyle,
            ...(a.style.legacyStyle === null
              ? {}
              : {
                  legacyMetadata: {
                    alias: a.style.legacyStyle,
                    canonicalStyle: a.style.canonicalStyle,
                    sunsetAt: legacyAliasSunsetAt.toISOString(),
                    acceptedAt: now.toISOString(),
                  },
                }),
            providerModel,
            promptVersion: PROMPT_VERSION,
            prompt: renderStagingPrompt({ roomType: a.roomType, style: a.style.canonicalStyle }),
            quality: producer.quality,
            aspectRatio: producer.aspectRatio,
            outputFormat: producer.outputFormat,
            outputCompression: producer.outputCompression,
          },
        );
        if (aiJobId !== null) return { disposition: STAGING_DISPOSITIONS.ENQUEUED, aiJobId, shouldEnsureQueued: false };
        // Read committed: this statement sees the conflicting job once its transaction committed.
        const existing = await findOpenStagingJob(tx, dedupeKey);
        if (existing !== undefined) {
          return { disposition: STAGING_DISPOSITIONS.EXISTING, aiJobId: existing.id, shouldEnsureQueued: existing.status === 'PENDING' };
        }
      }
      throw new AppError('CONFLICT', 'The staging job for this photo and style changed concurrently; try again.');
    },
    { maxWait: 5_000, timeout: 15_000 },
  );
}

async function enqueueAfterCommit(deps: StagingProducerDeps, aiJobId: string, priority: number | undefined): Promise<void> {
  try {
    await withQueueTimeout(enqueueStagingJob(deps.stagingQueue, aiJobId, { priority }), 'enqueue');
  } catch (error) {
    // ai_jobs is the outbox: the job stays PENDING and the repair dispatcher adds the message.
    deps.logger.warn({ event: 'ai_room_staging.enqueue_failed', jobId: aiJobId, err: error }, 'ai_room_staging.enqueue_failed');
  }
}
