// Inventory benchmark: bulkCreate, bulkUpdate and bulkDelete of 500 items and getUnits of a
// property with 5,000 items, each as a ratio to a raw single `pg` statement over the same rows
// measured in the same run. Targets: each bulk procedure's p50 within 1.3x of raw;
// getUnits p95 within 2x of raw. Prints numbers only; no assertions.
//
//   node_modules/.bin/tsx tools/bench/inventory-bench.ts [--iterations 30] [--warmup 5]
//
// "use case" = zod parse + the services function (what the procedure runs after its middlewares);
// "procedure" = the same through appRouter.createCaller (session, rate limit in Redis, zod,
// use case), each call by a fresh agent assigned to the property, so that the limiter counts but
// never refuses and the statements are the agent's, as on the use case side. (An admin's access
// check is TRUE, and Postgres then planned the bulk UPDATE as a hash join over the whole table: the
// same statement, a different query plan, not procedure cost.) The agents are made before a
// comparison starts, not in the procedure's setup between timed calls: three ORM statements there,
// against the other sides' one, left the garbage of their setup to be collected within the
// procedure's timed call (about 0.5 ms of bulkCreate's p50 went that way).
// The three sides of each comparison take turns within every round, each on rows of its own.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { ZBulkCreateInput, ZBulkDeleteInput, ZBulkUpdateInput } from '@staging/contracts/inventory';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import { createRedis } from '@staging/platform/queues';
import { bulkCreateInventoryItems } from '@staging/services/inventory/bulk-create-items';
import { bulkDeleteInventoryItems } from '@staging/services/inventory/bulk-delete-items';
import { bulkUpdateInventoryItems } from '@staging/services/inventory/bulk-update-items';
import { getInventoryUnits } from '@staging/services/inventory/get-units';
import type { TrpcDeps } from '@staging/trpc/context';
import { createCaller } from '@staging/trpc/root';
import { printFigure } from './figures';
import { benchTrpcDeps } from './trpc-deps';
import { present } from './present';


const { values: args } = parseArgs({
  options: { iterations: { type: 'string', default: '30' }, warmup: { type: 'string', default: '5' } },
});
const ITERATIONS = Number(args.iterations);
const WARMUP = Number(args.warmup);
const BULK_SIZE = 500;
const UNITS = 10;
const ITEMS_PER_UNIT = 500;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return present(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)], `p${p}`);
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

interface Series {
  name: string;
  samples: number[];
}

/** Prints the series and returns the last one's p50 and p95 ratios to raw. */
function report(title: string, raw: Series, others: Series[]): { p50: number; p95: number } {
  const line = (s: Series) =>
    `  ${s.name.padEnd(34)} p50 ${percentile(s.samples, 50).toFixed(2).padStart(8)} ms   p95 ${percentile(s.samples, 95).toFixed(2).padStart(8)} ms`;
  const ratios = (other: Series) => ({
    p50: percentile(other.samples, 50) / percentile(raw.samples, 50),
    p95: percentile(other.samples, 95) / percentile(raw.samples, 95),
  });
  console.log(`\n${title}`);
  console.log(line(raw));
  for (const other of others) {
    console.log(line(other));
    const { p50, p95 } = ratios(other);
    console.log(`    ratio to raw: p50 ${p50.toFixed(2)}×   p95 ${p95.toFixed(2)}×`);
  }
  return ratios(present(others.at(-1), 'the last measured read'));
}

/** `rounds` rounds of one timed call per side (setup untimed); the first WARMUP are discarded. */
async function compare(rounds: number, sides: { series: Series; run: (round: number) => Promise<unknown>; setup?: () => Promise<void> }[]): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    for (const side of sides) {
      await side.setup?.();
      const ms = await time(() => side.run(round));
      if (round >= WARMUP) side.series.samples.push(ms);
    }
  }
}

type Caller = ReturnType<typeof createCaller>;
type Ratios = ReturnType<typeof report>;

interface Connections {
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  db: Db;
  pool: pg.Pool;
  setupPool: pg.Pool;
  redis: ReturnType<typeof createRedis>;
  deps: TrpcDeps;
}

/** What every comparison needs: the connections, the owner's use case context, and agents' callers. */
interface Scene extends Connections {
  ownerId: string;
  context: () => { db: Db; actor: { id: string; role: 'AGENT' }; now: Date };
  /** One caller per round, each for a new agent assigned to `propertyId`. */
  assignedAgentCallers: (propertyId: string, count: number) => Promise<(round: number) => Caller>;
}

/** The property whose units the bulk procedures write to, each run into a unit of its own. */
interface BulkProperty {
  id: string;
  newUnit: () => Promise<string>;
}

type SideUnits = Record<'raw' | 'useCase' | 'procedure', string>;

async function openConnections(): Promise<Connections> {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // Untimed setup (rows to delete, ids to update) runs on a connection of its own: a backend
  // that has just inserted and read rows deletes them faster than another one does (about 0.2x
  // of the raw DELETE here), which favoured whichever side shared it (the raw one).
  const setupPool = new pg.Pool({ connectionString: database.url, max: 1 });
  const redis = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', { connectionName: 'inventory-bench', role: 'producer' });
  const deps = benchTrpcDeps({ db, redis, service: 'inventory-bench' });
  return { database, db, pool, setupPool, redis, deps };
}

async function closeConnections({ database, db, pool, setupPool, redis, deps }: Connections): Promise<void> {
  await deps.stagingQueue.close();
  await deps.searchQueue.close();
  redis.disconnect();
  await pool.end();
  await setupPool.end();
  await db.$disconnect();
  await database.drop();
}

async function prepareScene(connections: Connections): Promise<Scene> {
  const { db, redis, deps } = connections;
  // Producer connections refuse commands until connected (no offline queue).
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const owner = await db.user.create({ data: { email: `bench-${randomUUID()}@example.test`, name: 'Bench', passwordHash: 'unused' } });
  const actor = { id: owner.id, role: 'AGENT' as const };
  const context = () => ({ db, actor, now: new Date() });
  const assignedAgentCallers = async (propertyId: string, count: number) => {
    const callers: Caller[] = [];
    for (let i = 0; i < count; i += 1) {
      const agent = await db.user.create({ data: { email: `agent-${randomUUID()}@example.test`, name: 'Agent', passwordHash: 'unused' } });
      await db.propertyAgent.create({ data: { propertyId, userId: agent.id } });
      callers.push(
        createCaller({
          deps,
          headers: new Headers(),
          session: { sessionId: 'bench', user: { id: agent.id, email: agent.email, name: agent.name, role: 'AGENT' }, locale: null },
          clientAddress: '127.0.0.1',
        }),
      );
    }
    return (round: number) => present(callers[round], `caller ${round}`);
  };
  return { ...connections, ownerId: owner.id, context, assignedAgentCallers };
}

async function itemIdsOf(setupPool: pg.Pool, unitId: string): Promise<string[]> {
  return (await setupPool.query<{ id: string }>(`SELECT "id" FROM "inventory_items" WHERE "propertyUnitId" = $1 ORDER BY "id"`, [unitId])).rows.map((row) => row.id);
}

/** bulkCreate: every run inserts 500 new rows into a unit of its own (no unique conflicts). */
async function measureBulkCreate(scene: Scene): Promise<{ created: Ratios; bulkProperty: BulkProperty; units: SideUnits }> {
  const { db, pool, context } = scene;
  const property = await db.property.create({ data: { ownerAgentId: scene.ownerId, title: 'bulk', address: 'a', city: 'c' } });
  const rounds = WARMUP + ITERATIONS;
  const newUnit = async () => (await db.propertyUnit.create({ data: { propertyId: property.id, name: 'u' } })).id;
  const items = Array.from({ length: BULK_SIZE }, (_, i) => ({
    unitNumber: `A-${i}`,
    floor: i % 40,
    status: 'AVAILABLE' as const,
    priceAdjustment: (i % 100) * 12.5,
  }));
  const raw: Series = { name: 'raw pg INSERT … unnest RETURNING', samples: [] };
  const useCase: Series = { name: 'use case (zod + service)', samples: [] };
  const procedure: Series = { name: 'procedure (createCaller)', samples: [] };
  const units: SideUnits = { raw: '', useCase: '', procedure: '' };
  const callerOf = await scene.assignedAgentCallers(property.id, rounds);
  await compare(rounds, [
    {
      series: raw,
      setup: async () => void (units.raw = await newUnit()),
      run: () =>
        pool.query(
          `INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber", "floor", "status", "priceAdjustment", "createdAt", "updatedAt")
           SELECT $1, x.n, x.f, x.s::"InventoryStatus", x.p::numeric, $6, $6
           FROM unnest($2::text[], $3::float8[], $4::text[], $5::text[]) AS x(n, f, s, p)
           RETURNING *`,
          [
            units.raw,
            items.map((item) => item.unitNumber),
            items.map((item) => item.floor),
            items.map((item) => item.status),
            items.map((item) => String(item.priceAdjustment)),
            new Date(),
          ],
        ),
    },
    {
      series: useCase,
      setup: async () => void (units.useCase = await newUnit()),
      run: () => bulkCreateInventoryItems(context(), ZBulkCreateInput.parse({ propertyUnitId: units.useCase, items })),
    },
    {
      series: procedure,
      setup: async () => void (units.procedure = await newUnit()),
      run: (round) => callerOf(round).inventory.bulkCreate({ propertyUnitId: units.procedure, items }),
    },
  ]);
  const created = report(`bulkCreate of ${BULK_SIZE} items (${ITERATIONS} runs)`, raw, [useCase, procedure]);
  return { created, bulkProperty: { id: property.id, newUnit }, units };
}

/** bulkUpdate: each side flips the status of its own 500 items (those bulkCreate left in `units`) every round. */
async function measureBulkUpdate(scene: Scene, bulkProperty: BulkProperty, units: SideUnits): Promise<Ratios> {
  const { pool, setupPool, context } = scene;
  const rounds = WARMUP + ITERATIONS;
  const statusOf = (round: number) => (round % 2 === 0 ? 'RESERVED' : 'AVAILABLE');
  const [rawIds, useCaseIds, procedureIds] = [await itemIdsOf(setupPool, units.raw), await itemIdsOf(setupPool, units.useCase), await itemIdsOf(setupPool, units.procedure)];
  const updateRaw: Series = { name: 'raw pg UPDATE … ANY RETURNING', samples: [] };
  const updateUseCase: Series = { name: 'use case (zod + service)', samples: [] };
  const updateProcedure: Series = { name: 'procedure (createCaller)', samples: [] };
  const callerOf = await scene.assignedAgentCallers(bulkProperty.id, rounds);
  await compare(rounds, [
    {
      series: updateRaw,
      run: (round) =>
        pool.query(
          `UPDATE "inventory_items" SET "status" = $2::"InventoryStatus", "updatedAt" = $3 WHERE "id" = ANY($1::text[]) RETURNING *`,
          [rawIds, statusOf(round), new Date()],
        ),
    },
    {
      series: updateUseCase,
      run: (round) => bulkUpdateInventoryItems(context(), ZBulkUpdateInput.parse({ ids: useCaseIds, action: 'status', status: statusOf(round) })),
    },
    {
      series: updateProcedure,
      run: (round) => callerOf(round).inventory.bulkUpdate({ ids: procedureIds, action: 'status', status: statusOf(round) }),
    },
  ]);
  return report(`bulkUpdate (status) of ${BULK_SIZE} items (${ITERATIONS} runs)`, updateRaw, [updateUseCase, updateProcedure]);
}

/** bulkDelete: each side deletes 500 items inserted for it (untimed) just before. */
async function measureBulkDelete(scene: Scene, bulkProperty: BulkProperty): Promise<Ratios> {
  const { pool, setupPool, context } = scene;
  const rounds = WARMUP + ITERATIONS;
  const deleteIds: Record<'raw' | 'useCase' | 'procedure', string[]> = { raw: [], useCase: [], procedure: [] };
  const freshItems = async () => {
    const unitId = await bulkProperty.newUnit();
    await setupPool.query(
      `INSERT INTO "inventory_items" ("propertyUnitId", "unitNumber", "updatedAt") SELECT $1, n::text, now() FROM generate_series(1, $2) n`,
      [unitId, BULK_SIZE],
    );
    return itemIdsOf(setupPool, unitId);
  };
  const deleteRaw: Series = { name: 'raw pg DELETE … ANY RETURNING', samples: [] };
  const deleteUseCase: Series = { name: 'use case (zod + service)', samples: [] };
  const deleteProcedure: Series = { name: 'procedure (createCaller)', samples: [] };
  const callerOf = await scene.assignedAgentCallers(bulkProperty.id, rounds);
  await compare(rounds, [
    {
      series: deleteRaw,
      setup: async () => void (deleteIds.raw = await freshItems()),
      run: () => pool.query(`DELETE FROM "inventory_items" WHERE "id" = ANY($1::text[]) RETURNING "id"`, [deleteIds.raw]),
    },
    {
      series: deleteUseCase,
      setup: async () => void (deleteIds.useCase = await freshItems()),
      run: () => bulkDeleteInventoryItems(context(), ZBulkDeleteInput.parse({ ids: deleteIds.useCase })),
    },
    {
      series: deleteProcedure,
      setup: async () => void (deleteIds.procedure = await freshItems()),
      run: (round) => callerOf(round).inventory.bulkDelete({ ids: deleteIds.procedure }),
    },
  ]);
  return report(`bulkDelete of ${BULK_SIZE} items (${ITERATIONS} runs)`, deleteRaw, [deleteUseCase, deleteProcedure]);
}

/** getUnits: one property with 10 units × 500 items = 5,000 items. */
async function measureGetUnits(scene: Scene): Promise<Ratios> {
  const { db, pool, context } = scene;
  const listProperty = await db.property.create({ data: { ownerAgentId: scene.ownerId, title: 'list', address: 'a', city: 'c' } });
  for (let u = 0; u < UNITS; u += 1) {
    const unit = await db.propertyUnit.create({ data: { propertyId: listProperty.id, name: `Unit ${u}` } });
    await db.inventoryItem.createMany({
      data: Array.from({ length: ITEMS_PER_UNIT }, (_, i) => ({
        propertyUnitId: unit.id,
        unitNumber: `${u}-${i}`,
        floor: i % 30,
        priceAdjustment: i % 7 === 0 ? null : i * 3.25,
        notes: i % 5 === 0 ? 'corner unit with a view of the park' : null,
      })),
    });
  }
  const listRaw: Series = { name: 'raw pg SELECT of the same rows', samples: [] };
  const listUseCase: Series = { name: 'use case (service)', samples: [] };
  const listProcedure: Series = { name: 'procedure (createCaller)', samples: [] };
  const callerOf = await scene.assignedAgentCallers(listProperty.id, WARMUP + ITERATIONS * 2);
  await compare(WARMUP + ITERATIONS * 2, [
    {
      series: listRaw,
      run: () =>
        pool.query(
          `SELECT u."id", u."name", u."createdAt", i.*
           FROM "property_units" u LEFT JOIN "inventory_items" i ON i."propertyUnitId" = u."id"
           WHERE u."propertyId" = $1`,
          [listProperty.id],
        ),
    },
    { series: listUseCase, run: () => getInventoryUnits(context(), { propertyId: listProperty.id }) },
    {
      series: listProcedure,
      run: (round) => callerOf(round).inventory.getUnits({ propertyId: listProperty.id }),
    },
  ]);
  const count = (await getInventoryUnits(context(), { propertyId: listProperty.id })).units.reduce((n, unit) => n + unit.items.length, 0);
  return report(`getUnits of a property with ${count} items (${ITERATIONS * 2} runs)`, listRaw, [listUseCase, listProcedure]);
}

async function main(): Promise<void> {
  const connections = await openConnections();
  try {
    const scene = await prepareScene(connections);
    const { created, bulkProperty, units } = await measureBulkCreate(scene);
    const updated = await measureBulkUpdate(scene, bulkProperty, units);
    const deleted = await measureBulkDelete(scene, bulkProperty);
    const listed = await measureGetUnits(scene);

    printFigure({ name: 'bulkCreate 500 p50 vs raw INSERT', value: created.p50, target: 1.3, better: 'lower' });
    printFigure({ name: 'bulkUpdate 500 p50 vs raw UPDATE', value: updated.p50, target: 1.3, better: 'lower' });
    printFigure({ name: 'bulkDelete 500 p50 vs raw DELETE', value: deleted.p50, target: 1.3, better: 'lower' });
    printFigure({ name: 'getUnits 5,000 p95 vs raw SELECT', value: listed.p95, target: 2, better: 'lower' });
  } finally {
    await closeConnections(connections);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
