import { isWellFormedId } from '@staging/contracts/ids';
import type { PublicPropertyDto } from '@staging/contracts/public';
import { Prisma, queryRows } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { selectColumns } from '@staging/db/select-columns';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { PUBLIC_IMAGE_SELECT, PUBLIC_IMAGE_SQL_CONDITION, toPublicImages } from './public-images';
import type { PublicImageRow } from './public-images';

export const PUBLIC_PROPERTY_NOT_FOUND = 'Property not found';

/** The facts a listing states about itself, shown alike to its agents, on the public page and in search. */
export const LISTING_FACTS_SELECT = selectColumns(['id', 'title', 'address', 'city', 'description', 'bedrooms', 'bathrooms', 'features']) satisfies Prisma.PropertySelect;

/** A property as anonymous surfaces read it: the search document must match the public page. */
export type PublicPropertyRow = Prisma.PropertyGetPayload<{ select: typeof LISTING_FACTS_SELECT }> & { images: PublicImageRow[] };

// The listing facts and, as one JSON array in gallery order (IMAGE_ORDER), the images that may be
// public: one statement instead of the ORM's query per relation, on the hottest anonymous read.
const FACT_COLUMNS = Prisma.raw(Object.keys(LISTING_FACTS_SELECT).map((column) => `p."${column}"`).join(', '));
const IMAGE_OBJECT = Prisma.raw(
  `json_build_object(${Object.keys(PUBLIC_IMAGE_SELECT)
    .map((column) => `'${column}', i."${column}"`)
    .join(', ')})`,
);

/** Reads the listing facts and the public images of `propertyId` (null when there is no such property). */
export async function readPublicProperty(db: Db, propertyId: string): Promise<PublicPropertyRow | null> {
  const rows = await queryRows<PublicPropertyRow>(
    db,
    Prisma.sql`
      SELECT ${FACT_COLUMNS}, COALESCE((
        SELECT json_agg(${IMAGE_OBJECT} ORDER BY i."displayOrder", i."createdAt", i."id")
        FROM "property_images" i
        WHERE i."propertyId" = p."id" AND ${Prisma.raw(PUBLIC_IMAGE_SQL_CONDITION)}
      ), '[]') AS "images"
      FROM "properties" p
      WHERE p."id" = ${propertyId}`,
  );
  return rows[0] ?? null;
}

/** The anonymous listing page: originals and APPROVED variants only, each variant labelled. */
export async function getPublicProperty(db: Db, propertyId: string): Promise<PublicPropertyDto> {
  if (!isWellFormedId(propertyId)) throw new AppError(ErrorCode.NOT_FOUND, PUBLIC_PROPERTY_NOT_FOUND);
  const property = await readPublicProperty(db, propertyId);
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
