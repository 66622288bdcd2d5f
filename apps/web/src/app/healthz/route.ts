// Liveness probe for the launcher and orchestrators. It touches no database or queue store, so a
// Postgres hiccup restarts nothing; readiness of the dependencies is the api's /readyz concern.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok', service: 'web' }, { headers: { 'cache-control': 'no-store' } });
}
