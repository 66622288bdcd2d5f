import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createDb } from '@staging/db/client';
import { createProperty, createUser } from '@staging/db/testing/factories';
import { AppError } from '@staging/domain/errors';
import {
  accessiblePropertyFilter,
  assertCanManageProperty,
  assertCanReviewProperty,
  PROPERTY_NOT_FOUND,
} from './property-access';
import type { Actor } from './property-access';

const db = createDb(process.env.DATABASE_URL as string);
afterAll(() => db.$disconnect());

let owner: Actor;
let assigned: Actor;
let unrelated: Actor;
let admin: Actor;
let propertyId: string;
let otherPropertyId: string;

beforeAll(async () => {
  const asActor = (user: { id: string; role: Actor['role'] }): Actor => ({ id: user.id, role: user.role });
  [owner, assigned, unrelated, admin] = (
    await Promise.all([createUser(db), createUser(db), createUser(db), createUser(db, { role: 'ADMIN' })])
  ).map(asActor) as [Actor, Actor, Actor, Actor];
  propertyId = (await createProperty(db, { ownerAgentId: owner.id, assignedAgentIds: [assigned.id] })).id;
  otherPropertyId = (await createProperty(db, { ownerAgentId: unrelated.id })).id;
});

async function outcome(promise: Promise<void>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

const NOT_FOUND = `NOT_FOUND: ${PROPERTY_NOT_FOUND}`;

describe('property access', () => {
  test('manage: owner, assigned agent and admin; anyone else reads NOT_FOUND', async () => {
    expect(await outcome(assertCanManageProperty(db, owner, propertyId))).toBe('ok');
    expect(await outcome(assertCanManageProperty(db, assigned, propertyId))).toBe('ok');
    expect(await outcome(assertCanManageProperty(db, admin, propertyId))).toBe('ok');
    expect(await outcome(assertCanManageProperty(db, unrelated, propertyId))).toBe(NOT_FOUND);
  });

  test('a missing property reads exactly like a foreign one', async () => {
    expect(await outcome(assertCanManageProperty(db, owner, 'no-such-property'))).toBe(NOT_FOUND);
    expect(await outcome(assertCanManageProperty(db, owner, otherPropertyId))).toBe(NOT_FOUND);
  });

  test('review: owner and assigned agent only; admins are excluded', async () => {
    expect(await outcome(assertCanReviewProperty(db, owner, propertyId))).toBe('ok');
    expect(await outcome(assertCanReviewProperty(db, assigned, propertyId))).toBe('ok');
    expect(await outcome(assertCanReviewProperty(db, admin, propertyId))).toBe(NOT_FOUND);
    expect(await outcome(assertCanReviewProperty(db, unrelated, propertyId))).toBe(NOT_FOUND);
  });

  test('list filter selects exactly the accessible properties', async () => {
    const ids = async (actor: Actor) =>
      (
        await db.property.findMany({
          where: { AND: [{ id: { in: [propertyId, otherPropertyId] } }, accessiblePropertyFilter(actor)] },
          select: { id: true },
        })
      )
        .map((row) => row.id)
        .sort();
    expect(await ids(owner)).toEqual([propertyId]);
    expect(await ids(assigned)).toEqual([propertyId]);
    expect(await ids(unrelated)).toEqual([otherPropertyId]);
    expect(await ids(admin)).toEqual([propertyId, otherPropertyId].sort());
  });
});
