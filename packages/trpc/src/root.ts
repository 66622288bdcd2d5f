import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { aiRouter } from './routers/ai/ai-router';
import { inventoryRouter } from './routers/inventory/inventory-router';
import { propertyRouter } from './routers/property/property-router';
import { publicRouter } from './routers/public/public-router';
import { createCallerFactory, router } from './trpc';

/**
 * The shared router served at /api/trpc by apps/api and apps/web. One line per domain router;
 * add a domain by importing its router and naming it here.
 */
export const appRouter = router({
  inventory: inventoryRouter,
  property: propertyRouter,
  ai: aiRouter,
  public: publicRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** Server-side calls without HTTP (tests, scripts): `createCaller(context)`. */
export const createCaller = createCallerFactory(appRouter);
