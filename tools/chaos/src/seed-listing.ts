// What the agent stages: one property with one stored original photo per job, written with the
// db seed helpers and put into the run's bucket (the worker checks the object before buying).
import { randomUUID } from 'node:crypto';
import type { Db } from '@staging/db/client';
import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import type { ObjectStorage } from '@staging/platform/storage';
import sharp from 'sharp';

export interface Listing {
  email: string;
  password: string;
  originalImageIds: string[];
}

/** A 600×400 noisy JPEG: a real photo-sized input the simulator can resize into a staged output. */
function photo(): Promise<Buffer> {
  return sharp({
    create: { width: 600, height: 400, channels: 3, background: { r: 150, g: 120, b: 90 }, noise: { type: 'gaussian', mean: 120, sigma: 30 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function seedListing(db: Db, storage: ObjectStorage, originals: number): Promise<Listing> {
  const password = `chaos-${randomUUID()}`;
  const agent = await createUser(db, { password });
  const property = await createProperty(db, { ownerAgentId: agent.id, title: 'Chaos listing' });
  const bytes = await photo();
  const originalImageIds: string[] = [];
  for (let i = 0; i < originals; i += 1) {
    const image = await createOriginalImage(db, { propertyId: property.id, displayOrder: i });
    await storage.putObject(image.objectKey, bytes, 'image/jpeg');
    originalImageIds.push(image.id);
  }
  return { email: agent.email, password, originalImageIds };
}
