import type { SetCoverResult, TSetCoverInput } from '@staging/contracts/property';
import { publicCoverOf } from '@staging/domain/listing-cover';
import { assertCanManageProperty } from '../access/property-access';
import type { Actor } from '../access/property-access';
import { findManageableImage, imageNotFound } from '../images/find-image';
import { IMAGE_ORDER } from '../images/image-dto';
import { lockListing, makeCover } from '../images/listing-cover';
import { requestSearchRebuild } from '../images/request-search-rebuild';
import type { PublicPageDeps } from './public-page-deps';

/**
 * Chooses the listing's cover among its public originals, or clears the choice. A staged image is
 * STAGED_IMAGE_CANNOT_BE_COVER, a hidden original BAD_REQUEST, a photo of another property (or
 * one the caller may not manage) NOT_FOUND like a missing one.
 */
export async function setListingCover(deps: PublicPageDeps, input: { actor: Actor } & TSetCoverInput): Promise<SetCoverResult> {
  const { propertyId, imageId } = input;
  if (imageId === null) {
    await assertCanManageProperty(deps.db, input.actor, propertyId);
  } else {
    const image = await findManageableImage(deps.db, input.actor, imageId, { propertyId: true });
    if (image.propertyId !== propertyId) throw imageNotFound();
  }
  const now = deps.clock.now();
  const images = await deps.db.$transaction(async (tx) => {
    if (imageId === null) {
      await lockListing(tx, propertyId);
      await tx.propertyImage.updateMany({ where: { propertyId, isMain: true }, data: { isMain: false, updatedAt: now } });
    } else {
      await makeCover(tx, { id: imageId, propertyId }, { now, field: 'imageId' });
    }
    return tx.propertyImage.findMany({
      where: { propertyId, isStyled: false },
      select: { id: true, isMain: true, isStyled: true, isPublic: true },
      orderBy: IMAGE_ORDER,
    });
  });
  deps.logger.info(
    { event: 'property.cover_changed', propertyId, imageId, actorUserId: input.actor.id },
    'property.cover_changed',
  );
  await requestSearchRebuild(deps, propertyId);
  return { coverImageId: publicCoverOf(images)?.id ?? null };
}
