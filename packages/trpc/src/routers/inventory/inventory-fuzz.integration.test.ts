// Property-based tests: thousands of random inputs per procedure, through createCaller (the same
// router, middlewares and use cases as HTTP, minus the transport) and a few hundred over HTTP.
// Invariant: every answer is a success or a client error (BAD_REQUEST, NOT_FOUND, CONFLICT,
// UNAUTHORIZED); never INTERNAL_SERVER_ERROR, never anything logged as a server failure.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { TRPCError } from '@trpc/server';
import fc from 'fast-check';
import { ZBulkCreateInput, ZBulkDeleteInput, ZBulkUpdateInput, ZCreateItemInput, ZDeleteItemInput, ZGetUnitsInput, ZUpdateItemInput } from '@staging/contracts/inventory';
import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { createProperty, createPropertyUnit } from '@staging/db/testing/factories';
import type { ResolvedSession } from '@staging/services/auth/sessions';
import { createSession } from '@staging/services/auth/sessions';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { createCaller } from '../../root';
import { INVENTORY_PROCEDURES } from '../../testing/inventory-calls';
import type { InventoryProcedure } from '../../testing/inventory-calls';
import { inventoryArbitraries } from '../../testing/inventory-arbitraries';
import type { IdPools } from '../../testing/inventory-arbitraries';
import { callProcedure, createTestDeps, openTestResources, startTestServer } from '../../testing/test-server';
import type { LogCapture, TestServer } from '../../testing/test-server';
import type { TrpcDeps } from '../../context';

/** Inputs per procedure through createCaller: runs × up to BATCH concurrent calls per run. */
const CALLER_RUNS = 100;
const BATCH = 24;
/** Inputs per procedure over HTTP. */
const HTTP_RUNS = 60;

const ALLOWED_CODES = new Set(['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT', 'UNAUTHORIZED']);

const SCHEMAS = {
  getUnits: ZGetUnitsInput,
  create: ZCreateItemInput,
  update: ZUpdateItemInput,
  delete: ZDeleteItemInput,
  bulkCreate: ZBulkCreateInput,
  bulkUpdate: ZBulkUpdateInput,
  bulkDelete: ZBulkDeleteInput,
} as const;

const resources = openTestResources();
let deps: TrpcDeps;
let logs: LogCapture;
let server: TestServer;
const pools: IdPools = { propertyIds: [], unitIds: [], itemIds: [] };

interface FuzzActor {
  session: ResolvedSession;
  cookie: string;
}
// Round-robin pools of real users: every call goes to the next user of its kind, so no user gets
// near the 10/20-per-minute limits and a TOO_MANY_REQUESTS can only mean a real bug.
const actors: Record<'agent' | 'admin' | 'unrelated', FuzzActor[]> = { agent: [], admin: [], unrelated: [] };
const nextIndex: Record<string, number> = {};
let callCount = 0;

async function seedActors(kind: 'agent' | 'admin' | 'unrelated', count: number, propertyId: string): Promise<void> {
  const now = new Date();
  const users = await resources.db.user.createManyAndReturn({
    data: Array.from({ length: count }, () => ({
      email: `fuzz-${randomUUID()}@example.test`,
      name: 'Fuzz',
      passwordHash: 'unused',
      role: kind === 'admin' ? ('ADMIN' as const) : ('AGENT' as const),
    })),
    select: { id: true, email: true, name: true, role: true },
  });
  if (kind === 'agent') {
    await resources.db.propertyAgent.createMany({ data: users.map((user) => ({ propertyId, userId: user.id })) });
  }
  const sessions = await Promise.all(users.map((user) => createSession(resources.db, user.id, { now, ttlMs: 3_600_000 })));
  users.forEach((user, i) => {
    const { token } = sessions[i]!;
    actors[kind].push({ session: { sessionId: token, user, locale: null }, cookie: `${SESSION_COOKIE_NAME}=${token}` });
  });
}

function pickActor(procedure: InventoryProcedure, selector: number): FuzzActor | null {
  // 80% assigned agents, 8% admins, 8% unrelated agents, 4% anonymous.
  const roll = selector % 25;
  if (roll === 0) return null;
  const kind = roll <= 2 ? 'admin' : roll <= 4 ? 'unrelated' : 'agent';
  const key = `${kind}:${procedure}`;
  const index = nextIndex[key] ?? 0;
  nextIndex[key] = index + 1;
  const pool = actors[kind];
  return pool[index % pool.length] as FuzzActor;
}

beforeAll(async () => {
  const test = createTestDeps(resources);
  deps = test.deps;
  logs = test.logs;
  server = await startTestServer(deps);
  const owner = await resources.db.user.create({
    data: { email: `fuzz-owner-${randomUUID()}@example.test`, name: 'Owner', passwordHash: 'unused' },
  });
  const property = await createProperty(resources.db, { ownerAgentId: owner.id });
  const units = [await createPropertyUnit(resources.db, { propertyId: property.id }), await createPropertyUnit(resources.db, { propertyId: property.id })];
  const otherProperty = await createProperty(resources.db, { ownerAgentId: owner.id });
  const otherUnit = await createPropertyUnit(resources.db, { propertyId: otherProperty.id });
  await seedActors('agent', 220, property.id);
  await seedActors('admin', 20, property.id);
  await seedActors('unrelated', 20, property.id);
  const items = await resources.db.inventoryItem.createManyAndReturn({
    data: Array.from({ length: 60 }, (_, i) => ({ propertyUnitId: units[i % 2]!.id, unitNumber: String(i) })),
    select: { id: true },
  });
  pools.propertyIds.push(property.id, property.id, property.id, otherProperty.id);
  pools.unitIds.push(units[0]!.id, units[1]!.id, units[0]!.id, units[1]!.id, otherUnit.id);
  pools.itemIds.push(...items.map((item) => item.id));
});

afterAll(async () => {
  await server.close();
  await resources.close();
});

/** Keeps the item pool live: created items join it, deleted ones leave it. */
function remember(procedure: InventoryProcedure, data: unknown): void {
  if (procedure === 'delete') return forget([(data as InventoryItemRecord).itemId]);
  if (procedure === 'bulkDelete') return forget((data as { itemIds: string[] }).itemIds);
  if (procedure === 'create') pools.itemIds.push((data as InventoryItemRecord).itemId);
  if (procedure === 'bulkCreate') pools.itemIds.push(...(data as { items: InventoryItemRecord[] }).items.map((item) => item.itemId));
}

function forget(itemIds: string[]): void {
  const gone = new Set(itemIds);
  const kept = pools.itemIds.filter((id) => !gone.has(id));
  // Never empty: a deleted id still makes a fine NOT_FOUND probe.
  if (kept.length > 0) pools.itemIds.splice(0, pools.itemIds.length, ...kept);
}

/** Checks one outcome against the invariant; returns a description of a violation, or null. */
function violation(procedure: InventoryProcedure, input: unknown, outcome: { ok: true; data: unknown } | { ok: false; code: string; issues?: unknown[] }): string | null {
  const parsed = SCHEMAS[procedure].safeParse(input);
  if (!outcome.ok) {
    if (!ALLOWED_CODES.has(outcome.code)) return `${procedure} answered ${outcome.code}`;
    if (!parsed.success && outcome.code !== 'BAD_REQUEST' && outcome.code !== 'UNAUTHORIZED') {
      return `${procedure}: invalid input answered ${outcome.code}`;
    }
    if (outcome.code === 'BAD_REQUEST' && (outcome.issues?.length ?? 0) === 0 && !parsed.success) {
      return `${procedure}: BAD_REQUEST without field issues`;
    }
    return null;
  }
  if (!parsed.success) return `${procedure}: accepted an input its schema refuses`;
  if (procedure === 'create') {
    const input_ = parsed.data as { unitNumber: string; status?: string; floor?: number | null; notes?: string | null };
    const record = outcome.data as InventoryItemRecord;
    if (record.unitNumber !== input_.unitNumber) return 'create: unitNumber not stored as trimmed input';
    if (record.status !== (input_.status ?? 'AVAILABLE')) return 'create: wrong status';
    if (record.floor !== (input_.floor ?? null)) return 'create: wrong floor';
    if (record.notes !== (input_.notes ?? null)) return 'create: wrong notes';
  }
  if (procedure === 'bulkCreate') {
    const items = (outcome.data as { items: unknown[] }).items;
    if (items.length !== (parsed.data as { items: unknown[] }).items.length) return 'bulkCreate: wrong count';
  }
  if (procedure === 'bulkUpdate' || procedure === 'bulkDelete') {
    const wanted = (parsed.data as { ids: string[] }).ids.length;
    const got = procedure === 'bulkUpdate' ? (outcome.data as { items: unknown[] }).items.length : (outcome.data as { count: number }).count;
    if (wanted !== got) return `${procedure}: touched ${got} of ${wanted}`;
  }
  return null;
}

async function viaCaller(procedure: InventoryProcedure, input: unknown, actor: FuzzActor | null) {
  const caller = createCaller({ deps, headers: new Headers(), session: actor?.session ?? null, clientAddress: '203.0.113.1' });
  try {
    const data: unknown = await (caller.inventory[procedure] as (input: unknown) => Promise<unknown>)(input);
    remember(procedure, data);
    return { ok: true as const, data };
  } catch (error) {
    if (!(error instanceof TRPCError)) return { ok: false as const, code: `non-TRPCError ${String(error)}` };
    const issues = (error.cause as { issues?: unknown[] } | undefined)?.issues;
    return { ok: false as const, code: error.code, ...(issues === undefined ? {} : { issues }) };
  }
}

async function viaHttp(procedure: InventoryProcedure, input: unknown, actor: FuzzActor | null) {
  const result = await callProcedure(server.url, INVENTORY_PROCEDURES[procedure], `inventory.${procedure}`, input, {
    ...(actor === null ? {} : { cookie: actor.cookie }),
  });
  if (result.ok) {
    remember(procedure, result.data);
    return { ok: true as const, data: result.data };
  }
  if (result.status >= 500) return { ok: false as const, code: `HTTP ${result.status} ${result.error.data.code}` };
  return { ok: false as const, code: result.error.data.code, ...(result.error.data.issues ? { issues: result.error.data.issues } : {}) };
}

const procedures = Object.keys(INVENTORY_PROCEDURES) as InventoryProcedure[];

describe('createCaller fuzz: thousands of inputs per procedure', () => {
  test.each(procedures)('%s', async (procedure) => {
    const arbitrary = inventoryArbitraries(pools)[procedure];
    let inputs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(arbitrary, fc.nat()), { minLength: BATCH / 2, maxLength: BATCH }), async (batch) => {
        inputs += batch.length;
        const outcomes = await Promise.all(
          batch.map(([input, selector]) => viaCaller(procedure, input, pickActor(procedure, selector + callCount++))),
        );
        // JSON-less inputs (NaN, undefined, -0) are checked against the schema as given.
        const problems = outcomes.map((outcome, i) => violation(procedure, batch[i]![0], outcome)).filter((p) => p !== null);
        expect(problems).toEqual([]);
      }),
      { numRuns: CALLER_RUNS },
    );
    expect(inputs).toBeGreaterThanOrEqual(CALLER_RUNS * (BATCH / 2));
    expect(logs.lines).toEqual([]);
  });
});

describe('HTTP fuzz: JSON on the wire', () => {
  test.each(procedures)('%s', async (procedure) => {
    const arbitrary = inventoryArbitraries(pools)[procedure];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(arbitrary, fc.nat()), { minLength: 2, maxLength: 6 }), async (batch) => {
        const outcomes = await Promise.all(
          batch.map(([input, selector]) => viaHttp(procedure, input, pickActor(procedure, selector + callCount++))),
        );
        // What the server saw is the JSON round trip of the input (NaN → null, undefined dropped).
        const problems = outcomes
          .map((outcome, i) => {
            const json = JSON.stringify(batch[i]![0]);
            return violation(procedure, json === undefined ? undefined : JSON.parse(json), outcome);
          })
          .filter((p) => p !== null);
        expect(problems).toEqual([]);
      }),
      { numRuns: Math.ceil(HTTP_RUNS / 4) },
    );
    expect(logs.lines).toEqual([]);
  });

  test('random raw bodies (text or arbitrary JSON) are refused with a 4xx, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.json()), fc.constantFrom(...procedures), async (rawBody, procedure) => {
        const result = await callProcedure(server.url, INVENTORY_PROCEDURES[procedure], `inventory.${procedure}`, null, {
          cookie: actors.agent[callCount++ % actors.agent.length]!.cookie,
          rawBody,
        });
        expect([result.ok, result.status >= 400 && result.status < 500]).toEqual([false, true]);
      }),
      { numRuns: 100 },
    );
    expect(logs.lines).toEqual([]);
  });
});
