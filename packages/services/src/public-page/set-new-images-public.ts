import type { TSetNewImagesPublicInput } from '@staging/contracts/property';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { accessiblePropertyFilter, PROPERTY_NOT_FOUND } from '../access/property-access';
import type { Actor } from '../access/property-access';
import type { PublicPageDeps } from './public-page-deps';

/**
 * Sets whether originals uploaded to the property from now on are shown on the public page at
 * once. Photos already uploaded keep their own switch, so the public page does not change and
 * nothing is rebuilt.
 */
export async function setNewImagesPublic(
  deps: Pick<PublicPageDeps, 'db' | 'logger' | 'clock'>,
  input: { actor: Actor } & TSetNewImagesPublicInput,
): Promise<TSetNewImagesPublicInput> {
  // Access is part of the WHERE clause: one statement, and "not yours" reads as "not found".
  const updated = await deps.db.property.updateMany({
    where: { AND: [{ id: input.propertyId }, accessiblePropertyFilter(input.actor)] },
    data: { newImagesPublic: input.newImagesPublic, updatedAt: deps.clock.now() },
  });
  if (updated.count === 0) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
  deps.logger.info(
    { event: 'property.new_images_public_changed', propertyId: input.propertyId, actorUserId: input.actor.id, newImagesPublic: input.newImagesPublic },
    'property.new_images_public_changed',
  );
  return { propertyId: input.propertyId, newImagesPublic: input.newImagesPublic };
}
