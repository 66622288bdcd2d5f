/**
 * True when a browser sent this request from another site. Applied to cookie-authenticated
 * mutations: SameSite=Lax already keeps the cookie off most cross-site POSTs, this is the second
 * layer (a sibling subdomain is "same-site" for SameSite but not here). Same rule as the Express
 * origin check of apps/api, so both transports agree:
 *
 * - An Origin header must be one of `allowedOrigins` or name the request's own host.
 * - Without Origin, `Sec-Fetch-Site: cross-site` is refused.
 * - With neither header the caller is not a browser (native client, curl, server-to-server): no
 *   ambient cookie is at play for CSRF, so it passes.
 */
export function isCrossSiteRequest(headers: Headers, allowedOrigins: readonly string[]): boolean {
  const origin = headers.get('origin');
  if (origin === null) return headers.get('sec-fetch-site') === 'cross-site';
  const normalized = origin.toLowerCase().replace(/\/+$/, '');
  if (allowedOrigins.some((allowed) => allowed.toLowerCase().replace(/\/+$/, '') === normalized)) return false;
  // "null" (sandboxed frames, file://) parses to no host and is never same-origin.
  const parsed = URL.parse(normalized);
  const host = headers.get('host');
  if (parsed === null || parsed.host === '' || host === null) return true;
  // By host only: behind a TLS-terminating proxy the scheme the app sees is not the browser's.
  return parsed.host !== host.toLowerCase();
}
