/**
 * The one table of request limits: every tRPC procedure and every api GET route that reads data,
 * with the calls it allows per {@link REQUEST_LIMIT_WINDOW_SECONDS} and whom it counts
 * (docs/decisions/api.md "Request limits of every procedure and route"; the inventory numbers
 * are docs/system.md 4.4).
 *
 * - `user`: the surface needs a session; calls count per signed-in user (all their browsers and
 *   devices together). A call without a session is refused as UNAUTHORIZED.
 * - `address`: the surface is anonymous; calls count per client address, so the numbers are
 *   sized for a CDN edge or a carrier NAT that speaks for many visitors at once.
 *
 * Each entry counts on its own: ten calls of one procedure take nothing from another.
 */

export const REQUEST_LIMIT_WINDOW_SECONDS = 60;

export type RequestLimitKey = 'user' | 'address';

export interface RequestLimit {
  /** Calls allowed per window. */
  points: number;
  per: RequestLimitKey;
}

const perUser = (points: number): RequestLimit => ({ points, per: 'user' });
const perAddress = (points: number): RequestLimit => ({ points, per: 'address' });

/** Keyed by tRPC path (`router.procedure`); a procedure missing here answers 500 (see its test). */
export const PROCEDURE_LIMITS = {
  'inventory.getUnits': perUser(20),
  // The dashboard reads a property's units once per page load and a unit's items a page at a
  // time (load more, and again after each change); a CSV export of a big property walks its
  // pages on the server, not through these.
  'inventory.listUnits': perUser(60),
  'inventory.listItems': perUser(240),
  'inventory.create': perUser(10),
  'inventory.update': perUser(20),
  'inventory.delete': perUser(20),
  'inventory.bulkCreate': perUser(20),
  'inventory.bulkUpdate': perUser(20),
  'inventory.bulkDelete': perUser(20),
  // Units are set up once per building: creation counts like inventory.create, the rest like the
  // other item mutations.
  'inventory.createUnit': perUser(10),
  'inventory.renameUnit': perUser(20),
  'inventory.deleteUnit': perUser(20),
  // Submission buys predictions, so it is the tightest of the ai actions.
  'ai.submitStaging': perUser(20),
  'ai.cancelStaging': perUser(60),
  'ai.cancelSubmission': perUser(60),
  'ai.approveStagedVariant': perUser(60),
  'ai.rejectStagedVariant': perUser(60),
  'ai.getJob': perUser(120),
  'ai.listJobs': perUser(120),
  // The jobs panel polls every 1.5 s while a job runs: 40 a minute per open tab.
  'ai.jobHistory': perUser(240),
  'ai.spendSummary': perUser(60),
  // The spend page's table of every property, a page per click.
  'ai.spendByProperty': perUser(60),
  // A live stream per tab, opened with the dashboard and again after every drop and every
  // 10 minutes (the stream's longest life); a browser retries a failed one every few seconds,
  // so a broken connection stops here and falls back to polling instead of retrying for good.
  'ai.stagingEvents': perUser(60),
  // The properties page: a load, a page, and a refresh after each change the live stream reports.
  'property.list': perUser(120),
  // The review page reads a page of variants waiting and one published on each 15 s poll.
  'ai.reviewVariants': perUser(120),
  // The navigation badge polls every 15 s in every tab, besides page loads.
  'ai.pendingReviewCount': perUser(120),
  // The same badge's line of photos waiting to start: every 5 s in every tab while some wait.
  'ai.startLine': perUser(120),
  'property.get': perUser(300),
  // What the public page shows: an agent going down a gallery switches a photo a click at a time,
  // like review clicks; the cover and the default for new photos are set once in a while.
  'property.setImagePublic': perUser(60),
  'property.setCover': perUser(20),
  'property.setNewImagesPublic': perUser(20),
  'public.getProperty': perAddress(600),
  'public.search': perAddress(300),
} as const satisfies Record<string, RequestLimit>;

export type ProcedurePath = keyof typeof PROCEDURE_LIMITS;

/** Keyed by the Express path of a GET route of apps/api. */
export const API_READ_LIMITS = {
  '/api/public/properties/:propertyId': perAddress(600),
  '/api/public/search': perAddress(300),
  // A listing page shows dozens of photos; CDNs keep them (300 s, derivatives a year), so the
  // api sees mostly first views.
  '/api/public/images/:imageId/content': perAddress(1200),
  '/api/public/images/:imageId/derivatives/:size': perAddress(1200),
  // An agent's property page revalidates every thumbnail on each view (private, no-cache).
  '/api/property-images/:imageId/content': perUser(600),
  '/api/property-images/:imageId/derivatives/:size': perUser(1200),
  '/api/auth/me': perUser(120),
  // A whole inventory per call, streamed: an agent exports now and then, a script should not loop.
  '/api/properties/:propertyId/inventory.csv': perUser(10),
} as const satisfies Record<string, RequestLimit>;

export type ApiReadRoute = keyof typeof API_READ_LIMITS;

/**
 * GET routes of apps/api deliberately without a limit: health probes of the orchestrator and the
 * load balancer, which come from a few fixed addresses and must never be refused.
 */
export const UNLIMITED_API_ROUTES = ['/healthz', '/readyz'] as const;

/** Points per entry that replace the table's (tests only, to reach a limit in a few calls). */
export type RequestLimitOverrides = Partial<Record<ProcedurePath | ApiReadRoute, number>>;

/** The limit of `name` with any override applied. */
export function requestLimitOf(limit: RequestLimit, name: ProcedurePath | ApiReadRoute, overrides: RequestLimitOverrides | undefined): RequestLimit {
  const points = overrides?.[name];
  return points === undefined ? limit : { ...limit, points };
}
