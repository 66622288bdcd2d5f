// Data helpers for the browser tests: seed users, properties and photos straight into the e2e
// database and object storage (each call with fresh random values, so parallel tests never share
// a user, a property or a rate-limit bucket), and read back what the UI did.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { createDb, sqlPoolOf, type Db, type PropertyImage, type RoomType } from '@staging/db/client';
import {
  createInventoryItem,
  createProperty,
  createPropertyUnit,
  createStagedImage,
  createUser,
  type SeededUser,
} from '@staging/db/testing/factories';
import type { CanonicalStyle } from '@staging/db/client';
import { seedScale, type ScaleSeed, type ScaleSize } from '@staging/db/testing/scale-seed';
import { createObjectStorage, type ObjectStorage } from '@staging/platform/storage';
import type { E2eStackInfo } from './e2e-types';

export interface E2eData {
  db: Db;
  storage: ObjectStorage;
  close(): Promise<void>;
}

/** Helpers on the main database, or on another one of the stack (the paused world's). */
export function openE2eData(info: E2eStackInfo, s3SecretAccessKey: string, databaseUrl: string = info.databaseUrl): E2eData {
  const db = createDb(databaseUrl, { maxConnections: 3 });
  const storage = createObjectStorage({
    endpoint: info.s3Endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: s3SecretAccessKey,
    bucket: info.s3Bucket,
    forcePathStyle: true,
  });
  return {
    db,
    storage,
    async close() {
      storage.close();
      await db.$disconnect();
    },
  };
}

/** An empty room drawn locally (wall, floor, window) as a JPEG, 3:2 like a listing photo. */
export async function drawRoomPhoto(options: { wall?: string; floor?: string; width?: number; height?: number } = {}): Promise<Buffer> {
  const width = options.width ?? 1200;
  const height = options.height ?? 800;
  const wall = options.wall ?? '#d9cbb8';
  const floor = options.floor ?? '#8a6a4f';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="${wall}"/>
    <rect y="${Math.round(height * 0.7)}" width="${width}" height="${Math.round(height * 0.3)}" fill="${floor}"/>
    <rect x="${Math.round(width * 0.62)}" y="${Math.round(height * 0.18)}" width="${Math.round(width * 0.25)}" height="${Math.round(height * 0.35)}" fill="#f4f8fb" stroke="#ffffff" stroke-width="12"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/**
 * A noisy photo of a few hundred kilobytes: noise does not compress, so an upload of it takes long
 * enough under a throttled connection to watch the progress bar move.
 */
export async function drawNoisyPhoto(width = 1500, height = 1000): Promise<Buffer> {
  const room = await drawRoomPhoto({ width, height, wall: '#d8c9b4' });
  // A translucent layer of grain over the room: the grain is what keeps the JPEG large.
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .ensureAlpha(0.3)
    .png()
    .toBuffer();
  return sharp(room).composite([{ input: grain }]).jpeg({ quality: 95 }).toBuffer();
}

export interface SeededListing {
  agent: SeededUser;
  propertyId: string;
  title: string;
}

/** A fresh agent owning a fresh property (no photos, no units). */
export async function seedAgentWithListing(data: E2eData, options: { title?: string; city?: string } = {}): Promise<SeededListing> {
  const agent = await createUser(data.db);
  const property = await createProperty(data.db, {
    ownerAgentId: agent.id,
    title: options.title ?? `E2E listing ${randomUUID().slice(0, 8)}`,
    ...(options.city === undefined ? {} : { city: options.city }),
  });
  return { agent, propertyId: property.id, title: property.title };
}

export async function seedAgent(data: E2eData): Promise<SeededUser> {
  return createUser(data.db);
}

/**
 * An agency agent's share of a customer of `size` (at L: 10,000 properties, their 100,000 staging
 * jobs and spend, 500,000 items in one property), private to that agent, so other tests' public
 * pages and searches never meet it.
 */
export async function seedAgencyAtScale(data: E2eData, size: ScaleSize): Promise<{ agent: SeededUser; seed: ScaleSeed }> {
  const agent = await createUser(data.db);
  const client = await sqlPoolOf(data.db).connect();
  try {
    const prefix = `e2e${randomUUID().slice(0, 8)}-`;
    return { agent, seed: await seedScale(client, size, { prefix, agencyAgentId: agent.id, agencyOnly: true }) };
  } finally {
    client.release();
  }
}

/** An original photo with real bytes in object storage, as an upload would leave it. */
export async function seedOriginalPhoto(
  data: E2eData,
  options: {
    propertyId: string;
    roomType?: RoomType | null;
    isMain?: boolean;
    displayOrder?: number;
    wall?: string;
    fileName?: string;
    /** 1200×800 unless given: below the short edge staging renders at, so it warns as small. */
    width?: number;
    height?: number;
  },
): Promise<PropertyImage> {
  const id = randomUUID();
  const width = options.width ?? 1200;
  const height = options.height ?? 800;
  const bytes = await drawRoomPhoto({ width, height, ...(options.wall === undefined ? {} : { wall: options.wall }) });
  const objectKey = `originals/${options.propertyId}/${id}.jpg`;
  await data.storage.putObject(objectKey, bytes, 'image/jpeg');
  return data.db.propertyImage.create({
    data: {
      id,
      propertyId: options.propertyId,
      objectKey,
      contentType: 'image/jpeg',
      width,
      height,
      bytes: bytes.length,
      displayOrder: options.displayOrder ?? 0,
      isMain: options.isMain ?? false,
      roomType: options.roomType === undefined ? 'LIVING_ROOM' : options.roomType,
      fileName: options.fileName ?? null,
    },
  });
}

/** A unit with `count` items numbered `<prefix>-001`…; returns the unit id. */
export async function seedUnitWithItems(data: E2eData, options: { propertyId: string; name?: string; count?: number; prefix?: string }): Promise<string> {
  const unit = await createPropertyUnit(data.db, { propertyId: options.propertyId, name: options.name ?? 'Building A' });
  const prefix = options.prefix ?? 'A';
  for (let i = 1; i <= (options.count ?? 0); i += 1) {
    await createInventoryItem(data.db, {
      propertyUnitId: unit.id,
      unitNumber: `${prefix}-${String(i).padStart(3, '0')}`,
      floor: 1 + Math.floor((i - 1) / 4),
      status: 'AVAILABLE',
      priceAdjustment: 100 * i,
    });
  }
  return unit.id;
}

export async function countStagingJobs(data: E2eData, propertyId: string): Promise<number> {
  return data.db.aiJob.count({ where: { propertyId, type: 'ROOM_STAGING' } });
}

export async function countInventoryItems(data: E2eData, propertyUnitId: string): Promise<number> {
  return data.db.inventoryItem.count({ where: { propertyUnitId } });
}

export async function findImage(data: E2eData, imageId: string): Promise<PropertyImage | null> {
  return data.db.propertyImage.findUnique({ where: { id: imageId } });
}

export async function stagedVariantsOf(data: E2eData, originalImageId: string): Promise<PropertyImage[]> {
  return data.db.propertyImage.findMany({ where: { styledFromId: originalImageId }, orderBy: { createdAt: 'asc' } });
}

/** A staged variant of `original` in `reviewStatus`, with real bytes in object storage. */
export async function seedStagedVariant(
  data: E2eData,
  options: { original: PropertyImage; canonicalStyle: CanonicalStyle; reviewStatus?: 'PENDING_REVIEW' | 'APPROVED'; reviewedByUserId?: string; aiJobId?: string },
): Promise<PropertyImage> {
  const objectKey = `staged/${options.original.propertyId}/${randomUUID()}.jpg`;
  const bytes = await sharp(await drawRoomPhoto({ wall: '#c7d3c0', width: 1024, height: 1024 })).jpeg().toBuffer();
  await data.storage.putObject(objectKey, bytes, 'image/jpeg');
  return createStagedImage(data.db, {
    original: options.original,
    canonicalStyle: options.canonicalStyle,
    reviewStatus: options.reviewStatus ?? 'PENDING_REVIEW',
    ...(options.reviewedByUserId === undefined ? {} : { reviewedByUserId: options.reviewedByUserId }),
    ...(options.aiJobId === undefined ? {} : { aiJobId: options.aiJobId }),
    objectKey,
  });
}

/** Scripts the next prediction outcomes of the provider simulator (POST /__sim/faults). */
export async function queueSimulatorFaults(simulatorOrigin: string, faults: (string | { name: string; delayMs?: number; inputImageContains?: string })[]): Promise<void> {
  const response = await fetch(`${simulatorOrigin}/__sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`simulator refused the faults: ${response.status} ${await response.text()}`);
}

/** Finishes (succeeded) a prediction that the `never_complete` fault holds open. */
export async function completeSimulatorPrediction(simulatorOrigin: string, predictionId: string): Promise<void> {
  const response = await fetch(`${simulatorOrigin}/__sim/predictions/${encodeURIComponent(predictionId)}/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`simulator did not complete ${predictionId}: ${response.status} ${await response.text()}`);
}

/** Predictions the simulator has been asked to create (each one a purchase). */
export async function countSimulatorPredictions(simulatorOrigin: string): Promise<number> {
  const response = await fetch(`${simulatorOrigin}/__sim/predictions`);
  const body = (await response.json()) as { predictions?: unknown[] } | unknown[];
  return Array.isArray(body) ? body.length : (body.predictions?.length ?? 0);
}
