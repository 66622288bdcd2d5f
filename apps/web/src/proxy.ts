import { NextResponse, type NextRequest } from 'next/server';
import { parseWebEnv } from '@staging/config/web';
import type { WebConfig } from '@staging/config/web';
import { PUBLIC_PAGE_CACHE_CONTROL } from '@staging/http-edge/public-cache';
import { requestSourceOfHeaders } from '@staging/http-edge/request-source';
import { strictTransportSecurityFor } from '@staging/http-edge/request-source';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { LOCALE_COOKIE, localeOfRequest } from '@/lib/locale';
import { internalPathOf, isInternalPublicPath, publicPageOf, type PublicPage } from '@/lib/public-page-paths';
import { contentSecurityPolicy, createNonce, reportOriginOf } from '@/server/content-security-policy';
import { REQUEST_PATH_HEADER } from '@/server/request-path';

// Agent pages. A request without a session cookie is sent to sign-in right here, before any
// rendering; the (agent) layout still resolves the session, which catches expired cookies.
const AGENT_PREFIXES = ['/properties', '/review'];

function isAgentPath(pathname: string): boolean {
  return pathname === '/' || AGENT_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

let webConfig: WebConfig | undefined;

/**
 * HSTS on every page answer that reached the browser over HTTPS, in production; the first page a
 * browser loads pins the host. Route handlers stay outside this proxy: Next.js would buffer their
 * request bodies (photo uploads) through it.
 */
function withStrictTransportSecurity(request: NextRequest, response: NextResponse): NextResponse {
  // eslint-disable-next-line no-restricted-properties -- the web's entry points hand their environment to @staging/config
  webConfig ??= parseWebEnv(process.env);
  const hsts = strictTransportSecurityFor(requestSourceOfHeaders(request.headers, webConfig.trustedProxyHops), webConfig.nodeEnv);
  if (hsts !== undefined) response.headers.set('strict-transport-security', hsts);
  return response;
}

export function proxy(request: NextRequest): NextResponse {
  return withStrictTransportSecurity(request, pageResponse(request));
}

function pageResponse(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const pathWithQuery = `${pathname}${search}`;
  if (isAgentPath(pathname) && !request.cookies.get(SESSION_COOKIE_NAME)?.value) {
    const signIn = new URL('/sign-in', request.url);
    if (pathname !== '/') signIn.searchParams.set('next', pathWithQuery);
    return NextResponse.redirect(signIn, 303);
  }
  const publicPage = publicPageOf(request.nextUrl);
  if (publicPage !== null) return publicPageResponse(request, publicPage);
  if (isInternalPublicPath(pathname)) return withPublicPageHeaders(NextResponse.next());
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, pathWithQuery);
  const policy = policyWith(createNonce());
  // On the request so Next.js nonces its scripts, on the response so the browser enforces it.
  requestHeaders.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return response;
}

/**
 * A listing or search page (docs/decisions/public-pages.md "Public pages a CDN can keep"): rewritten to the
 * internal route of the visitor's language, so that Next.js caches one page per language and the
 * page itself reads nothing of the request. The rule is every page's but for the account's
 * language, which would need the session: the pick made in this browser (the cookie), else
 * Accept-Language. So a shared cache must key on both.
 */
function publicPageResponse(request: NextRequest, page: PublicPage): NextResponse {
  const locale = localeOfRequest({
    chosen: request.cookies.get(LOCALE_COOKIE)?.value,
    account: null,
    acceptLanguage: request.headers.get('accept-language'),
  });
  const target = new URL(internalPathOf(page, locale), request.url);
  // Next.js's own parameters (_rsc on client navigations) must survive; the query is in the path now.
  for (const [name, value] of request.nextUrl.searchParams) if (name !== 'q') target.searchParams.append(name, value);
  const response = withPublicPageHeaders(NextResponse.rewrite(target));
  response.headers.set('vary', 'Accept-Language, Cookie');
  return response;
}

/** The static CSP and the shared-cache lifetime of a cached public page (a failure overrides the latter with no-store). */
function withPublicPageHeaders(response: NextResponse): NextResponse {
  response.headers.set('content-security-policy', policyWith(null));
  response.headers.set('cache-control', PUBLIC_PAGE_CACHE_CONTROL);
  return response;
}

function policyWith(nonce: string | null): string {
  return contentSecurityPolicy({
    nonce,
    // Both are inlined by Next.js at build time, not read from the runtime environment.
    // eslint-disable-next-line no-restricted-properties
    development: process.env.NODE_ENV === 'development',
    // eslint-disable-next-line no-restricted-properties
    reportOrigin: reportOriginOf(process.env.NEXT_PUBLIC_SENTRY_DSN),
  });
}

export const config = {
  // Pages only: API routes answer 401 themselves, and static assets need no session.
  matcher: ['/((?!api/|_next/|healthz|auth/|favicon.ico|.*\\.(?:png|jpg|svg|ico|css|js)$).*)'],
};
