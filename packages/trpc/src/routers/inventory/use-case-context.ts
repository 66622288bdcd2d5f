import type { Actor } from '@staging/services/access/property-access';
import type { InventoryContext } from '@staging/services/inventory/item-records';
import type { TrpcDeps } from '../../context';

/** The inventory use cases' context from an authenticated procedure's context. */
export function inventoryContext(ctx: { deps: TrpcDeps; actor: Actor }): InventoryContext {
  return { db: ctx.deps.db, actor: ctx.actor, now: ctx.deps.clock.now() };
}
