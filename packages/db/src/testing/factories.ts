// Seed helpers for integration tests and e2e: each call creates rows with fresh random values
// (emails, names, object keys), so tests sharing one database never collide.
import { randomUUID } from 'node:crypto';
import type {
  AiJob,
  AiProviderAttempt,
  CanonicalStyle,
  Db,
  DbTransaction,
  InventoryItem,
  InventoryStatus,
  Property,
  PropertyImage,
  Prisma,
  PropertyUnit,
  ReviewStatus,
  RoomType,
  User,
  UserRole,
} from '../client';
import { hashPassword } from '../passwords';

function shortId(): string {
  return randomUUID().slice(0, 8);
}

export interface CreateUserOptions {
  role?: UserRole;
  email?: string;
  name?: string;
  /** Plain password to hash; a random one by default. */
  password?: string;
}

/** The created user plus the plain password, so a test or e2e script can log in. */
export type SeededUser = User & { password: string };

export async function createUser(db: Db, options: CreateUserOptions = {}): Promise<SeededUser> {
  const id = shortId();
  const password = options.password ?? `pw-${randomUUID()}`;
  const user = await db.user.create({
    data: {
      email: options.email ?? `agent-${id}@example.test`,
      name: options.name ?? `Test Agent ${id}`,
      passwordHash: await hashPassword(password),
      role: options.role ?? 'AGENT',
    },
  });
  return { ...user, password };
}

export interface CreatePropertyOptions {
  ownerAgentId: string;
  /** Agents assigned besides the owner. */
  assignedAgentIds?: string[];
  title?: string;
  city?: string;
  /** Whether photos uploaded from now on are public at once (the column's default: false). */
  newImagesPublic?: boolean;
}

export async function createProperty(db: Db, options: CreatePropertyOptions): Promise<Property> {
  const id = shortId();
  return db.property.create({
    data: {
      ownerAgentId: options.ownerAgentId,
      title: options.title ?? `Test listing ${id}`,
      address: `${Math.floor(Math.random() * 900) + 100} Test Street ${id}`,
      city: options.city ?? 'Testville',
      bedrooms: 2,
      bathrooms: 1,
      ...(options.newImagesPublic === undefined ? {} : { newImagesPublic: options.newImagesPublic }),
      agents: { create: (options.assignedAgentIds ?? []).map((userId) => ({ userId })) },
    },
  });
}

export async function createPropertyUnit(
  db: Db,
  options: { propertyId: string; name?: string; createdAt?: Date },
): Promise<PropertyUnit> {
  return db.propertyUnit.create({
    data: { propertyId: options.propertyId, name: options.name ?? `Unit type ${shortId()}`, createdAt: options.createdAt },
  });
}

export interface CreateInventoryItemOptions {
  propertyUnitId: string;
  unitNumber?: string;
  floor?: number | null;
  status?: InventoryStatus;
  priceAdjustment?: number | null;
  notes?: string | null;
}

export async function createInventoryItem(db: Db, options: CreateInventoryItemOptions): Promise<InventoryItem> {
  return db.inventoryItem.create({
    data: {
      propertyUnitId: options.propertyUnitId,
      unitNumber: options.unitNumber ?? `U-${shortId()}`,
      floor: options.floor ?? null,
      status: options.status ?? 'AVAILABLE',
      priceAdjustment: options.priceAdjustment ?? null,
      notes: options.notes ?? null,
    },
  });
}

export interface CreateOriginalImageOptions {
  propertyId: string;
  objectKey?: string;
  isMain?: boolean;
  roomType?: RoomType | null;
  displayOrder?: number;
  /** Shown on the public page (the column's default: true, as for photos from before the switch). */
  isPublic?: boolean;
}

export async function createOriginalImage(db: Db, options: CreateOriginalImageOptions): Promise<PropertyImage> {
  return db.propertyImage.create({
    data: {
      propertyId: options.propertyId,
      objectKey: options.objectKey ?? `properties/${options.propertyId}/originals/${randomUUID()}.jpg`,
      contentType: 'image/jpeg',
      width: 1536,
      height: 1024,
      bytes: 245_760,
      displayOrder: options.displayOrder ?? 0,
      isMain: options.isMain ?? false,
      roomType: options.roomType ?? 'LIVING_ROOM',
      ...(options.isPublic === undefined ? {} : { isPublic: options.isPublic }),
    },
  });
}

export interface CreateStagedImageOptions {
  /** The original the variant derives from (its id and property are reused). */
  original: Pick<PropertyImage, 'id' | 'propertyId'>;
  /** MODERN by default; pass distinct styles for several variants of one original. */
  canonicalStyle?: CanonicalStyle;
  /** Display style; the canonical name by default. */
  style?: string;
  /** PENDING_REVIEW by default, like a fresh job result. */
  reviewStatus?: ReviewStatus;
  /** Recorded as reviewer (and event actor) when the variant is APPROVED. */
  reviewedByUserId?: string | null;
  aiJobId?: string | null;
  objectKey?: string;
}

/**
 * A staged variant. An APPROVED one also gets its single APPROVED review event, as the approval
 * use case writes it, so seeded data satisfies the same invariants as real data.
 */
export async function createStagedImage(db: Db, options: CreateStagedImageOptions): Promise<PropertyImage> {
  const canonicalStyle = options.canonicalStyle ?? 'MODERN';
  const reviewStatus = options.reviewStatus ?? 'PENDING_REVIEW';
  const isApproved = reviewStatus === 'APPROVED';
  return db.$transaction(async (tx) => {
    const image = await tx.propertyImage.create({
      data: {
        propertyId: options.original.propertyId,
        styledFromId: options.original.id,
        isStyled: true,
        objectKey: options.objectKey ?? `properties/${options.original.propertyId}/staged/${randomUUID()}.jpg`,
        contentType: 'image/jpeg',
        width: 1024,
        height: 1024,
        bytes: 198_432,
        style: options.style ?? canonicalStyle,
        canonicalStyle,
        reviewStatus,
        reviewedByUserId: isApproved ? (options.reviewedByUserId ?? null) : null,
        reviewedAt: isApproved ? new Date() : null,
        aiJobId: options.aiJobId ?? null,
      },
    });
    if (isApproved) {
      await tx.propertyImageReviewEvent.create({
        data: {
          imageId: image.id,
          aiJobId: image.aiJobId,
          actorUserId: image.reviewedByUserId,
          kind: 'APPROVED',
        },
      });
    }
    return image;
  });
}

/** ai_provider_attempts columns other than the job's; attempt 1, just RESERVED, by default. */
export type ProviderAttemptColumns = Partial<Omit<Prisma.AiProviderAttemptUncheckedCreateInput, 'aiJobId'>>;

export interface CreateProviderAttemptOptions extends ProviderAttemptColumns {
  aiJobId: string;
}

/**
 * An attempt row written directly, for tests that need the ledger in a given state without a
 * worker driving it. The defaults are the row the worker reserves before buying anything; a
 * bought attempt needs its status and providerPredictionId passed. A transaction is accepted so
 * the row can commit together with the job's move, as the worker's own writes do.
 */
export async function createProviderAttempt(db: Db | DbTransaction, options: CreateProviderAttemptOptions): Promise<AiProviderAttempt> {
  return db.aiProviderAttempt.create({ data: { attemptNumber: 1, status: 'RESERVED', ...options } });
}

export interface CreateStagingJobOptions {
  /** The original photo the job stages (its property is the job's). */
  original: Pick<PropertyImage, 'id' | 'propertyId'>;
  /** ai_jobs columns; a PENDING job created now by default. */
  job?: Omit<Prisma.AiJobUncheckedCreateInput, 'type' | 'propertyId' | 'staging' | 'attempts'>;
  /** ai_room_staging_jobs columns that differ from a MODERN living room at medium quality. */
  staging?: Partial<Omit<Prisma.AiRoomStagingJobUncheckedCreateWithoutAiJobInput, 'originalImageId' | 'propertyId'>>;
  /** Attempt rows to write with the job, numbered 1, 2… in order unless they say otherwise. */
  attempts?: ProviderAttemptColumns[];
}

export type SeededStagingJob = AiJob & { attempts: AiProviderAttempt[] };

/**
 * A ROOM_STAGING job (ai_jobs plus ai_room_staging_jobs, and `attempts`) written directly, for
 * tests of what reads the ledger rather than what writes it.
 */
export async function createStagingJob(db: Db, options: CreateStagingJobOptions): Promise<SeededStagingJob> {
  const canonicalStyle = options.staging?.canonicalStyle ?? 'MODERN';
  const job = await db.aiJob.create({
    data: {
      ...options.job,
      type: 'ROOM_STAGING',
      propertyId: options.original.propertyId,
      staging: {
        create: {
          originalImageId: options.original.id,
          propertyId: options.original.propertyId,
          canonicalRoomType: 'LIVING_ROOM',
          submittedStyle: canonicalStyle,
          providerModel: 'openai/gpt-image-2',
          promptVersion: 'staging-v2.1',
          prompt: 'p',
          quality: 'medium',
          aspectRatio: '1:1',
          outputFormat: 'jpeg',
          outputCompression: 92,
          ...options.staging,
          canonicalStyle,
        },
      },
    },
  });
  const attempts: AiProviderAttempt[] = [];
  for (const [index, columns] of (options.attempts ?? []).entries()) {
    attempts.push(await createProviderAttempt(db, { attemptNumber: index + 1, ...columns, aiJobId: job.id }));
  }
  return { ...job, attempts };
}
