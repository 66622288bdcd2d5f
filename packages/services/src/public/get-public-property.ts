import type { Db } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { isWellFormedId } from '../images/ids';
import { PUBLIC_IMAGE_ORDER, PUBLIC_IMAGE_SELECT, PUBLIC_IMAGE_WHERE, toPublicImages } from './public-images';
import type { PublicImageDto } from './public-images';

export interface PublicPropertyDto {
  id: string;
  title: string;
  address: string;
  city: string;
  description: string | null;
  bedrooms: number;
  bathrooms: number;
  features: string[];
  /** Always an original (or null when the listing has no photo). */
  coverImage: PublicImageDto | null;
  images: PublicImageDto[];
}

export const PUBLIC_PROPERTY_NOT_FOUND = 'Property not found';

/** The anonymous listing page: originals and APPROVED variants only, each variant labelled. */
export async function getPublicProperty(db: Db, propertyId: string): Promise<PublicPropertyDto> {
  if (!isWellFormedId(propertyId)) throw new AppError(ErrorCode.NOT_FOUND, PUBLIC_PROPERTY_NOT_FOUND);
  const property = await db.property.findUnique({
    where: { id: propertyId },
    select: {
      id: true,
      title: true,
      address: true,
      city: true,
      description: true,
      bedrooms: true,
      bathrooms: true,
      features: true,
      images: { where: PUBLIC_IMAGE_WHERE, select: PUBLIC_IMAGE_SELECT, orderBy: PUBLIC_IMAGE_ORDER },
    },
  });
  if (property === null) throw new AppError(ErrorCode.NOT_FOUND, PUBLIC_PROPERTY_NOT_FOUND);
  const images = toPublicImages(property.images);
  return {
    id: property.id,
    title: property.title,
    address: property.address,
    city: property.city,
    description: property.description,
    bedrooms: property.bedrooms,
    bathrooms: property.bathrooms,
    features: property.features,
    coverImage: images.find((image) => image.isCover) ?? null,
    images,
  };
}
