import type { AgentImageDto, TSetImagePublicInput } from '@staging/contracts/property';
import { AppError, ErrorCode } from '@staging/domain/errors';
import type { Actor } from '../access/property-access';
import { findManageableImage, imageNotFound } from '../images/find-image';
import { AGENT_IMAGE_SELECT, toAgentImageDto } from '../images/image-dto';
import { lockListing } from '../images/listing-cover';
import { requestSearchRebuild } from '../images/request-search-rebuild';
import type { PublicPageDeps } from './public-page-deps';

/**
 * Shows an original on the public page or hides it from every anonymous surface (listing page,
 * public API, search document, public image routes), its approved staged variants with it.
 * Hiding the chosen cover also unchooses it, so the cover the agent sees marked is always one
 * visitors see; the listing falls back to its first public photo. Setting the value it already
 * has changes nothing but still rebuilds the search document, which heals a rebuild lost while
 * the queue store was down.
 */
export async function setImagePublic(
  deps: PublicPageDeps,
  input: { actor: Actor } & TSetImagePublicInput,
): Promise<AgentImageDto> {
  const image = await findManageableImage(deps.db, input.actor, input.imageId, { id: true, propertyId: true, isStyled: true });
  if (image.isStyled) {
    throw new AppError(ErrorCode.BAD_REQUEST, 'A staged image is public with its original; show or hide the original photo.', {
      issues: [{ path: ['imageId'], message: 'Choose an original photo' }],
    });
  }
  const now = deps.clock.now();
  const row = await deps.db.$transaction(async (tx) => {
    await lockListing(tx, image.propertyId);
    const updated = await tx.propertyImage.updateMany({
      where: { id: image.id },
      data: { isPublic: input.isPublic, ...(input.isPublic ? {} : { isMain: false }), updatedAt: now },
    });
    // Deleted by a concurrent request since the access check.
    if (updated.count === 0) throw imageNotFound();
    return tx.propertyImage.findUniqueOrThrow({ where: { id: image.id }, select: AGENT_IMAGE_SELECT });
  });
  deps.logger.info(
    { event: 'property_image.visibility_changed', imageId: image.id, propertyId: image.propertyId, actorUserId: input.actor.id, isPublic: input.isPublic },
    'property_image.visibility_changed',
  );
  await requestSearchRebuild(deps, image.propertyId);
  return toAgentImageDto(row);
}
