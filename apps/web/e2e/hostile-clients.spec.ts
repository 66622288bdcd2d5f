// Every route of the web app, read from the build's own route manifest (a page or route handler
// added anywhere is covered without editing this file), receives the requests of a careless or
// hostile client (tools/stack hostile-requests.ts) against the production server of the e2e stack,
// anonymous and signed in. The server keeps serving, no answer is a 5xx, no connection is dropped
// unless the client gave up first, and a 4xx of a JSON route carries its documented error body
// (what Next's own HTTP server and router refuse before our code runs carries Next's).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, signInQuickly, stack, test } from './support/fixtures';
import { seedAgentWithListing, seedOriginalPhoto } from '@staging/stack/e2e-fixtures';
import {
  hostileCasesFor,
  isRestErrorBody,
  isTrpcErrorBody,
  judgeAnswer,
  slowHeadersCase,
  type ErrorBodyCheck,
  type RouteUnderTest,
} from '@staging/stack/hostile-requests';
import { sendRaw } from '@staging/stack/raw-http';

const webDir = path.resolve(import.meta.dirname, '..');
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods a route handler exports (`export async function POST`, `export { h as GET }`). */
function exportedMethods(source: string): string[] {
  const exported = [...source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+(\w+)|export\s*\{([^}]*)\}/g)]
    .flatMap((match) => (match[1] !== undefined ? [match[1]] : (match[2] ?? '').split(',').map((part) => part.trim().split(/\s+as\s+/).at(-1) ?? '')));
  return exported.filter((name) => HTTP_METHODS.includes(name));
}

const STATIC_METADATA_ROUTES = ['/favicon.ico/route', '/icon.svg/route'];

/**
 * Pages (GET) and route handlers (their exported methods) from `.next/app-path-routes-manifest.json`,
 * dynamic segments filled from `samples` (by route, then by segment name) so requests reach the
 * seeded listing.
 */
function webRoutes(samples: Record<string, string>): RouteUnderTest[] {
  const manifest = JSON.parse(readFileSync(path.join(webDir, '.next/app-path-routes-manifest.json'), 'utf8')) as Record<string, string>;
  const fill = (route: string) => route.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_match, name: string) => samples[`${route} ${name}`] ?? samples[name] ?? 'x');
  return Object.entries(manifest)
    .filter(([entry]) => !entry.startsWith('/_'))
    .flatMap(([entry, route]) => {
      // Pages, and the site icons Next serves from files in src/app (no handler source to read).
      if (entry.endsWith('/page') || STATIC_METADATA_ROUTES.includes(entry)) return [{ method: 'GET', path: fill(route) }];
      const source = readFileSync(path.join(webDir, 'src/app', `${entry}.ts`), 'utf8');
      return exportedMethods(source).map((method) => ({ method, path: fill(route) }));
    });
}

/** JSON routes document an error body (tRPC's envelope, or the api's for the forwards); pages are HTML. */
function documentedBody(route: RouteUnderTest): ErrorBodyCheck | undefined {
  if (route.path.startsWith('/api/trpc/')) return (body) => isTrpcErrorBody(body) || isRestErrorBody(body);
  if (route.path.startsWith('/api/')) return isRestErrorBody;
  return undefined;
}

/** Requests in flight at once: enough to finish fast, few enough to leave the machine usable. */
const PARALLEL = 4;

test('every web route survives every hostile request, signed in and not', async ({ page, data }) => {
  test.setTimeout(600_000);
  const { agent, propertyId } = await seedAgentWithListing(data);
  const photo = await seedOriginalPhoto(data, { propertyId });
  await signInQuickly(page, agent);
  const session = (await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const routes = webRoutes({
    propertyId,
    trpc: 'property.list',
    // The forwards, each to a real api route: the upload, an agent's photo, a public listing.
    '/api/properties/[...path] path': `${propertyId}/images`,
    '/api/property-images/[...path] path': `${photo.id}/content`,
    '/api/public/[...path] path': `properties/${propertyId}`,
  });
  expect(routes.some((route) => route.path.startsWith('/api/trpc/'))).toBe(true);

  const failures: string[] = [];
  const casesPerRoute = new Map<string, number>();
  const slow = sendRaw(stack.webUrl, slowHeadersCase({ method: 'GET', path: '/healthz' }).request);
  for (const headerLines of [[], [`Cookie: ${session}`]]) {
    // Signed in, any request to sign-out is simply valid and would end the session the rest need.
    const reachable = headerLines.length === 0 ? routes : routes.filter((route) => route.path !== '/auth/sign-out');
    const work = reachable.flatMap((route) => hostileCasesFor(route, { headerLines }).map((hostileCase) => ({ route, hostileCase })));
    for (let i = 0; i < work.length; i += PARALLEL) {
      await Promise.all(
        work.slice(i, i + PARALLEL).map(async ({ route, hostileCase }) => {
          const label = `${route.method} ${route.path}`;
          casesPerRoute.set(label, (casesPerRoute.get(label) ?? 0) + 1);
          const answer = await sendRaw(stack.webUrl, { ...hostileCase.request, hangGuardMs: 60_000 }).catch((error: unknown) => error as Error);
          const verdict = answer instanceof Error ? answer.message : judgeAnswer(hostileCase, answer, documentedBody(route), { path: route.path, ownServer: false });
          if (verdict !== undefined) failures.push(`${label} ${headerLines.length === 0 ? 'anonymous' : 'signed in'}, ${hostileCase.name}: ${verdict}`);
        }),
      );
    }
  }
  console.log(`hostile-client cases per web route:\n${[...casesPerRoute].map(([label, n]) => `  ${n}\t${label}`).join('\n')}`);
  expect(failures).toEqual([]);
  expect((await slow).status).toBe(200);
  expect((await page.request.get(`${stack.webUrl}/healthz`)).status()).toBe(200);
});
