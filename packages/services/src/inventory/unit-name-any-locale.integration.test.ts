// The unit-name check on a database in the plain C locale, whose own lower() changes ASCII letters
// only: names differing in the case of any letter are still one name, a CONFLICT on `name` as on
// any other server, never the unique index's error.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import { createProperty, createUser } from '@staging/db/testing/factories';
import { ErrorCode } from '@staging/domain/errors';
import { createInventoryUnit } from './create-unit';
import { renameInventoryUnit } from './rename-unit';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase({ locale: 'C' });
  db = createDb(database.url);
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

test('"bloque ñ", "BLOQUE Ñ" and "Ático"/"ÁTICO" are taken names beside "Bloque Ñ" and "ático"', async () => {
  const owner = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: owner.id });
  const context = { db, actor: { id: owner.id, role: owner.role }, now: new Date() };
  await createInventoryUnit(context, { propertyId: property.id, name: 'Bloque Ñ' });
  const attic = await createInventoryUnit(context, { propertyId: property.id, name: 'ático' });
  for (const name of ['bloque ñ', 'BLOQUE Ñ']) {
    await expect(createInventoryUnit(context, { propertyId: property.id, name })).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
  }
  const other = await createInventoryUnit(context, { propertyId: property.id, name: 'Annex' });
  await expect(renameInventoryUnit(context, { propertyUnitId: other.propertyUnitId, name: 'ÁTICO' })).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
  // A unit's own name in another case is still its own.
  expect((await renameInventoryUnit(context, { propertyUnitId: attic.propertyUnitId, name: 'Ático' })).name).toBe('Ático');
});
