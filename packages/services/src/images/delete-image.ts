import { AppError, ErrorCode } from '@staging/domain/errors';
import type { Actor } from '../access/property-access';
import { afterOriginalDeleted, stagingJobsAffectedByOriginalDeletion } from '../staging/original-deletion';
import type { StagingQueue } from '../staging/staging-queue';
import { findManageableImage, imageNotFound } from './find-image';
import type { ImageDeps } from './image-deps';
import { requestSearchRebuild } from './request-search-rebuild';

/**
 * Deletes an original photo (docs/system.md 3.1, 4.2). In one transaction: its nonterminal staging jobs
 * are read (the trigger needs them found before it nulls originalImageId), then the row is
 * deleted, and migration 0010's triggers do the rest atomically: staged variants cascade, every
 * removed row gets its storage_deletion_outbox entry, queued jobs become CANCELED and active ones
 * CANCEL_REQUESTED. After the commit the queue follows (waiting messages removed, active jobs
 * woken to cancel at the provider) and the search document is rebuilt.
 *
 * A staged image is refused with STAGED_IMAGE_DELETE_FORBIDDEN: removing one is a review decision
 * that must leave a REJECTED event, i.e. ai.rejectStagedVariant.
 */
export async function deletePropertyImage(
  deps: ImageDeps & { stagingQueue: StagingQueue },
  input: { actor: Actor; imageId: string },
): Promise<void> {
  const image = await findManageableImage(deps.db, input.actor, input.imageId, { id: true, propertyId: true, isStyled: true });
  if (image.isStyled) {
    throw new AppError(
      ErrorCode.STAGED_IMAGE_DELETE_FORBIDDEN,
      'Staged images cannot be deleted here; reject the variant with ai.rejectStagedVariant.',
    );
  }
  const affected = await deps.db.$transaction(async (tx) => {
    const jobs = await stagingJobsAffectedByOriginalDeletion(tx, [image.id]);
    const deleted = await tx.propertyImage.deleteMany({ where: { id: image.id, isStyled: false } });
    // Deleted by a concurrent request since the access check: the same answer as a missing image.
    if (deleted.count === 0) throw imageNotFound();
    return jobs;
  });
  deps.logger.info(
    {
      event: 'property_image.deleted',
      imageId: image.id,
      propertyId: image.propertyId,
      actorUserId: input.actor.id,
      canceledJobIds: affected.canceledJobIds,
      cancelRequestedJobIds: affected.cancelRequestedJobIds,
    },
    'property_image.deleted',
  );
  await afterOriginalDeleted(deps, affected);
  await requestSearchRebuild(deps, image.propertyId);
}
