/**
 * The web's Content-Security-Policy (docs/decisions/web.md "Web Content-Security-Policy"), set by the
 * proxy. On the dashboard's pages, built per request: scripts run only with this request's nonce
 * ('strict-dynamic' lets Next.js's nonced bootstrap load its chunks); Next.js reads the nonce from
 * the policy on the request and puts it on every script it renders. The cached public pages are
 * rendered once for every visitor and cannot carry a nonce: their scripts come from this origin,
 * inline ones included (docs/decisions/public-pages.md "Public pages a CDN can keep").
 */
export interface PolicyOptions {
  /** This request's nonce; null for the static policy of the cached public pages. */
  nonce: string | null;
  /** next dev: React's dev build evaluates strings (call stacks) and HMR talks over a websocket. */
  development: boolean;
  /** Origin browser error reports are sent to (from NEXT_PUBLIC_SENTRY_DSN), if any. */
  reportOrigin?: string | undefined;
}

export function contentSecurityPolicy({ nonce, development, reportOrigin }: PolicyOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      ...(nonce === null ? ["'unsafe-inline'"] : [`'nonce-${nonce}'`, "'strict-dynamic'"]),
      ...(development ? ["'unsafe-eval'"] : []),
    ],
    // React renders style attributes (style={{…}}), which a nonce cannot cover; styles cannot run
    // code, so allowing inline ones costs far less than dropping those attributes.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'blob:', 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(development ? ['ws:', 'wss:'] : []), ...(reportOrigin === undefined ? [] : [reportOrigin])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** A fresh, unguessable nonce (128 bits, base64), one per page request. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The origin of a Sentry DSN (where the browser SDK posts), or undefined when unset/invalid. */
export function reportOriginOf(dsn: string | undefined): string | undefined {
  if (dsn === undefined || dsn === '') return undefined;
  try {
    return new URL(dsn).origin;
  } catch {
    return undefined;
  }
}
