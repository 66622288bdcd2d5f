// Seed data for the inventory tests: one property with two units, its owner, an assigned agent,
// an unrelated agent and an admin, each with a live session.
import { createProperty, createPropertyUnit } from '@staging/db/testing/factories';
import type { Db } from '@staging/db/client';
import { createSignedInUser } from './test-server';

export type SignedInUser = Awaited<ReturnType<typeof createSignedInUser>>;

export interface InventoryWorld {
  owner: SignedInUser;
  assigned: SignedInUser;
  unrelated: SignedInUser;
  admin: SignedInUser;
  propertyId: string;
  unitA: string;
  unitB: string;
  /** A property of the unrelated agent, with one unit. */
  otherPropertyId: string;
  otherUnit: string;
}

export async function seedInventoryWorld(db: Db, options: { now?: Date } = {}): Promise<InventoryWorld> {
  const [owner, assigned, unrelated, admin] = await Promise.all([
    createSignedInUser(db, options),
    createSignedInUser(db, options),
    createSignedInUser(db, options),
    createSignedInUser(db, { ...options, role: 'ADMIN' }),
  ]);
  const property = await createProperty(db, { ownerAgentId: owner.id, assignedAgentIds: [assigned.id] });
  const other = await createProperty(db, { ownerAgentId: unrelated.id });
  // getUnits orders units by createdAt (millisecond precision), then by random id: two inserts in
  // the same millisecond would tie, so A and B get creation times a second apart.
  const unitsCreatedAt = (options.now ?? new Date()).getTime();
  const unitA = await createPropertyUnit(db, { propertyId: property.id, name: 'A', createdAt: new Date(unitsCreatedAt) });
  const unitB = await createPropertyUnit(db, { propertyId: property.id, name: 'B', createdAt: new Date(unitsCreatedAt + 1000) });
  const otherUnit = await createPropertyUnit(db, { propertyId: other.id, name: 'Other' });
  return {
    owner,
    assigned,
    unrelated,
    admin,
    propertyId: property.id,
    unitA: unitA.id,
    unitB: unitB.id,
    otherPropertyId: other.id,
    otherUnit: otherUnit.id,
  };
}
