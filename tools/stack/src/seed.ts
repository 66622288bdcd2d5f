// Demo data for the local stack: two agents and an admin, three properties with units, inventory
// and a few original photos drawn locally (no network). Idempotent: a seeded database is left alone.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '@staging/db/client';
import { hashPassword } from '@staging/db/passwords';

export const DEMO_PASSWORD = 'demo-password';
export const DEMO_LOGINS = [
  { email: 'alice@demo.local', role: 'AGENT', name: 'Alice Agent' },
  { email: 'bob@demo.local', role: 'AGENT', name: 'Bob Broker' },
  { email: 'admin@demo.local', role: 'ADMIN', name: 'Ada Admin' },
] as const;

interface ObjectWriter {
  putObject(key: string, body: Buffer, contentType: string): Promise<unknown>;
}

const ROOMS = [
  { roomType: 'LIVING_ROOM', wall: '#d9cbb8', floor: '#8a6a4f' },
  { roomType: 'BEDROOM', wall: '#c9d6df', floor: '#a38b6d' },
  { roomType: 'TV_ROOM', wall: '#e3ddd3', floor: '#6f5a48' },
] as const;

/** An empty room: wall, floor and a window, so staging has something plausible to furnish. */
async function drawEmptyRoom(wall: string, floor: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1536" height="1024">
    <rect width="1536" height="1024" fill="${wall}"/>
    <polygon points="0,720 1536,720 1536,1024 0,1024" fill="${floor}"/>
    <rect x="980" y="180" width="380" height="360" fill="#f4f8fb" stroke="#ffffff" stroke-width="18"/>
    <line x1="1170" y1="180" x2="1170" y2="540" stroke="#ffffff" stroke-width="10"/>
    <rect x="0" y="700" width="1536" height="20" fill="#efe9e1"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export function assertSeedAllowed(nodeEnv: string | undefined): void {
  if (nodeEnv === 'production') {
    throw new Error('Refusing to seed demo data: NODE_ENV is production.');
  }
}

export async function seedDemoData(db: Db, storage: ObjectWriter, nodeEnv: string | undefined): Promise<boolean> {
  assertSeedAllowed(nodeEnv);
  if (await db.user.findUnique({ where: { email: DEMO_LOGINS[0].email }, select: { id: true } })) return false;

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const [alice, bob, admin] = await Promise.all(
    DEMO_LOGINS.map((login) =>
      db.user.create({ data: { email: login.email, name: login.name, role: login.role, passwordHash } }),
    ),
  );
  if (!alice || !bob || !admin) throw new Error('demo users were not created');

  const properties = [
    { title: 'Sunny Loft on Elm Street', address: '12 Elm Street', city: 'Springfield', ownerAgentId: alice.id, assigned: [] as string[] },
    { title: 'Harbor House', address: '3 Quay Road', city: 'Port Town', ownerAgentId: bob.id, assigned: [] },
    { title: 'Maple Court Apartments', address: '400 Maple Court', city: 'Springfield', ownerAgentId: admin.id, assigned: [alice.id] },
  ];

  for (const [index, spec] of properties.entries()) {
    const property = await db.property.create({
      data: {
        title: spec.title,
        address: spec.address,
        city: spec.city,
        ownerAgentId: spec.ownerAgentId,
        bedrooms: 2 + index,
        bathrooms: 1 + (index % 2),
        features: ['balcony', 'elevator', 'parking'].slice(0, index + 1),
        agents: { create: spec.assigned.map((userId) => ({ userId })) },
      },
    });
    for (const unitName of ['Building A', 'Building B']) {
      const unit = await db.propertyUnit.create({ data: { propertyId: property.id, name: unitName } });
      await db.inventoryItem.createMany({
        data: Array.from({ length: 4 }, (_, i) => ({
          id: randomUUID(),
          propertyUnitId: unit.id,
          unitNumber: `${unitName.slice(-1)}-${101 + i}`,
          floor: 1 + Math.floor(i / 2),
          status: (['AVAILABLE', 'RESERVED', 'SOLD', 'RENTED'] as const)[i % 4],
          updatedAt: new Date(),
        })),
      });
    }
    for (const [photoIndex, room] of ROOMS.entries()) {
      const id = randomUUID();
      const objectKey = `originals/${property.id}/${id}.jpg`;
      const bytes = await drawEmptyRoom(room.wall, room.floor);
      await storage.putObject(objectKey, bytes, 'image/jpeg');
      await db.propertyImage.create({
        data: {
          id,
          propertyId: property.id,
          objectKey,
          contentType: 'image/jpeg',
          width: 1536,
          height: 1024,
          bytes: bytes.length,
          displayOrder: photoIndex,
          isMain: photoIndex === 0,
          roomType: room.roomType,
        },
      });
    }
  }
  return true;
}
