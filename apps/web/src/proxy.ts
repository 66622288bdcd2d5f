import { NextResponse, type NextRequest } from 'next/server';
import { parseWebEnv } from '@staging/config/web';
import type { WebConfig } from '@staging/config/web';
import { strictTransportSecurityFor } from '@staging/domain/request-source';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { requestSourceOfHeaders } from '@staging/trpc/request-source';
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
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, pathWithQuery);
  const policy = contentSecurityPolicy({
    nonce: createNonce(),
    // Both are inlined by Next.js at build time, not read from the runtime environment.
    // eslint-disable-next-line no-restricted-properties
    development: process.env.NODE_ENV === 'development',
    // eslint-disable-next-line no-restricted-properties
    reportOrigin: reportOriginOf(process.env.NEXT_PUBLIC_SENTRY_DSN),
  });
  // On the request so Next.js nonces its scripts, on the response so the browser enforces it.
  requestHeaders.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  // Pages only: API routes answer 401 themselves, and static assets need no session.
  matcher: ['/((?!api/|_next/|healthz|auth/|favicon.ico|.*\\.(?:png|jpg|svg|ico|css|js)$).*)'],
};
