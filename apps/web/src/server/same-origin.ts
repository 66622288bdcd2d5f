const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF guard for state-changing requests, the same rule as the api's origin check: a browser
 * request must carry an Origin naming this host, or at least not be marked cross-site. Requests
 * with neither header are not from a browser, so no ambient cookie is being abused.
 */
export function isSameOriginRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const parsed = URL.parse(origin);
    return parsed !== null && parsed.host !== '' && host !== null && parsed.host.toLowerCase() === host.toLowerCase();
  }
  return request.headers.get('sec-fetch-site') !== 'cross-site';
}

/** True when the browser reached us over HTTPS (directly or through a TLS-terminating proxy). */
export function isHttpsRequest(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' || new URL(request.url).protocol === 'https:';
}

export function crossSiteRefused(): Response {
  return Response.json({ error: { code: 'FORBIDDEN', message: 'Cross-site request refused' } }, { status: 403 });
}
