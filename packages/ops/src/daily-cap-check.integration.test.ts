import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import {
  createOriginalImage,
  createProperty,
  createStagingJob,
  createUser,
} from '@staging/db/testing/factories';
import { checkDailyPurchases } from './daily-cap-check';

// A day of its own, so purchases other tests of this Jest run write today do not count.
const NOW = new Date('2026-03-05T18:00:00.000Z');
const databaseUrl = process.env.DATABASE_URL!;
let db: Db;

beforeAll(async () => {
  db = createDb(databaseUrl, { maxConnections: 2 });
  const owner = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: owner.id });
  const sent = [
    '2026-03-05T00:00:00.000Z',
    '2026-03-05T09:00:00.000Z',
    '2026-03-05T17:59:59.000Z',
    '2026-03-05T17:59:59.999Z',
    '2026-03-04T23:59:59.999Z',
  ];
  for (const [index, at] of [...sent, null].entries()) {
    const original = await createOriginalImage(db, { propertyId: property.id });
    await createStagingJob(db, {
      original,
      job: { status: 'PROCESSING', dedupeKey: `${original.id}:MODERN` },
      attempts: [
        {
          status: at === null ? 'RESERVED' : index % 2 === 0 ? 'ACTIVE' : 'FAILED',
          creatingAt: at === null ? null : new Date(at),
        },
      ],
    });
  }
});

afterAll(async () => {
  await db.$disconnect();
});

describe('doctor: daily purchase cap', () => {
  it.each([
    [null, 'info', 'AI_DAILY_PURCHASE_CAP unset (no cap); 4 paid attempts today (UTC day 2026-03-05)'],
    [6, 'pass', 'AI_DAILY_PURCHASE_CAP=6; 4 paid attempts today (UTC day 2026-03-05)'],
    [
      5,
      'warn',
      'AI_DAILY_PURCHASE_CAP=5; 4 paid attempts today (UTC day 2026-03-05): past the 80 % alert threshold (4)',
    ],
    [
      4,
      'warn',
      'AI_DAILY_PURCHASE_CAP=4; 4 paid attempts today (UTC day 2026-03-05): reached, new jobs wait until 2026-03-06T00:00:00.000Z',
    ],
  ] as const)('cap %p: %s', async (cap, status, detail) => {
    expect(await checkDailyPurchases(databaseUrl, NOW, cap)).toEqual([
      { scope: 'shared', check: 'daily purchase cap', status, detail },
    ]);
  });

  it('fails when the database cannot be read', async () => {
    const [finding] = await checkDailyPurchases('postgresql://nobody@127.0.0.1:1/none', NOW, 10);
    expect(finding).toMatchObject({ check: 'daily purchase cap', status: 'fail' });
  });
});
