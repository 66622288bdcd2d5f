import type { Db, Prisma } from '@staging/db/client';
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

/** The facts a listing states about itself, shown alike to its agents, on the public page and in search. */
export const LISTING_FACTS_SELECT = {
  id: true,
  title: true,
  address: true,
  city: true,
  description: true,
  bedrooms: true,
  bathrooms: true,
  features: true,
} as const satisfies Prisma.PropertySelect;

/** A property as anonymous surfaces read it: the search document must match the public page. */
export const PUBLIC_PROPERTY_SELECT = {
  ...LISTING_FACTS_SELECT,
  images: { where: PUBLIC_IMAGE_WHERE, select: PUBLIC_IMAGE_SELECT, orderBy: PUBLIC_IMAGE_ORDER },
} as const satisfies Prisma.PropertySelect;

/** The anonymous listing page: originals and APPROVED variants only, each variant labelled. */
export async function getPublicProperty(db: Db, propertyId: string): Promise<PublicPropertyDto> {
  if (!isWellFormedId(propertyId)) throw new AppError(ErrorCode.NOT_FOUND, PUBLIC_PROPERTY_NOT_FOUND);
  const property = await db.property.findUnique({
    where: { id: propertyId },
    select: PUBLIC_PROPERTY_SELECT,
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
