import { describe, expect, it } from '@jest/globals';
import { expectedSchemaOf } from './prisma-schema';

const SAMPLE = `
enum Color {
  RED
  GREEN // trailing comment
}

model Owner {
  id    String @id @default(dbgenerated("(gen_random_uuid())::text"))
  email String @unique
  pets  Pet[]
  @@map("owners")
}

/// doc comment
model Pet {
  id        String   @id
  ownerId   String
  keeperId  String?
  color     Color    @default(GREEN)
  tags      String[] @default([])
  price     Decimal? @db.Decimal(10, 2)
  bornAt    DateTime @default(now()) @db.Timestamptz(3)
  seenAt    DateTime?
  words     Unsupported("tsvector")
  owner     Owner    @relation(fields: [ownerId], references: [id])
  keeper    Owner?   @relation("Keeper", fields: [keeperId], references: [id])
  @@unique([ownerId, color], map: "pets_owner_color_uidx")
  @@index([keeperId, bornAt])
}
`;

describe('expectedSchemaOf', () => {
  const schema = expectedSchemaOf(SAMPLE);

  it('maps models to tables and enums to their values', () => {
    expect(schema.tables).toEqual(['owners', 'Pet']);
    expect(schema.enums).toEqual(new Map([['Color', ['RED', 'GREEN']]]));
  });

  it('derives PostgreSQL column types, nullability and defaults as Prisma creates them', () => {
    const pet = Object.fromEntries(schema.columns.filter((c) => c.table === 'Pet').map((c) => [c.column, c]));
    expect(pet.color).toMatchObject({ type: '"Color"', nullable: false, default: `'GREEN'::"Color"` });
    expect(pet.tags).toMatchObject({ type: 'text[]', default: 'ARRAY[]::text[]' });
    expect(pet.price).toMatchObject({ type: 'numeric(10,2)', nullable: true, default: null });
    expect(pet.bornAt).toMatchObject({ type: 'timestamp(3) with time zone', default: 'CURRENT_TIMESTAMP' });
    expect(pet.seenAt).toMatchObject({ type: 'timestamp(3) without time zone', nullable: true });
    expect(pet.words).toMatchObject({ type: 'tsvector', nullable: false, default: null });
    expect(schema.columns.find((c) => c.table === 'owners' && c.column === 'id')?.default).toBe('(gen_random_uuid())::text');
    expect(Object.keys(pet)).not.toContain('owner');
  });

  it('names keys and indexes with Prisma defaults unless mapped', () => {
    expect(schema.indexes.map((i) => i.name).sort()).toEqual(
      ['Pet_keeperId_bornAt_idx', 'Pet_pkey', 'owners_email_key', 'owners_pkey', 'pets_owner_color_uidx'].sort(),
    );
  });

  it('defaults ON DELETE to RESTRICT for required and SET NULL for optional relations', () => {
    expect(schema.foreignKeys).toEqual([
      expect.objectContaining({ name: 'Pet_ownerId_fkey', referencedTable: 'owners', onDelete: 'RESTRICT', onUpdate: 'CASCADE' }),
      expect.objectContaining({ name: 'Pet_keeperId_fkey', referencedTable: 'owners', onDelete: 'SET NULL', onUpdate: 'CASCADE' }),
    ]);
  });
});
