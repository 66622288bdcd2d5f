// The lifecycle the inventory-over-HTTP test files share: one server over the Jest run's Postgres
// and Redis per file, and a freshly seeded world per test.
import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import type { Db } from '@staging/db/client';
import { inventoryClient } from './inventory-calls';
import { seedInventoryWorld } from './inventory-fixtures';
import type { InventoryWorld } from './inventory-fixtures';
import { createTestDeps, openTestResources, startTestServer } from './test-server';
import type { LogCapture, TestServer } from './test-server';
import { systemClock } from '@staging/services/staging/staging-deps';
import type { Clock } from '@staging/services/staging/staging-deps';

export interface InventoryTestContext {
  db: Db;
  /** The server's tRPC base URL, for requests the inventory client cannot make. */
  url: string;
  call: ReturnType<typeof inventoryClient>;
  logs: LogCapture;
  /** Seeded anew before each test: fresh users mean fresh rate-limit counters, and no test sees another's rows. */
  world: InventoryWorld;
}

/**
 * Registers the hooks and returns the context whose fields they fill; read them inside tests.
 * `clock` is the server's, and each world's sessions start at its time so that they are live.
 */
export function useInventoryTestContext(clock: Clock = systemClock): InventoryTestContext {
  const resources = openTestResources();
  const ctx = { db: resources.db } as InventoryTestContext;
  let server: TestServer;
  beforeAll(async () => {
    const { deps, logs } = createTestDeps(resources, { clock });
    ctx.logs = logs;
    server = await startTestServer(deps);
    ctx.url = server.url;
    ctx.call = inventoryClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await resources.close();
  });
  beforeEach(async () => {
    ctx.world = await seedInventoryWorld(resources.db, { now: clock.now() });
  });
  return ctx;
}
