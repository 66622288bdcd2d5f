import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { REQUEST_PATH_HEADER } from '@/server/request-path';

// Agent pages. A request without a session cookie is sent to sign-in right here, before any
// rendering; the (agent) layout still resolves the session, which catches expired cookies.
const AGENT_PREFIXES = ['/properties', '/review'];

function isAgentPath(pathname: string): boolean {
  return pathname === '/' || AGENT_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const pathWithQuery = `${pathname}${search}`;
  if (isAgentPath(pathname) && !request.cookies.get(SESSION_COOKIE_NAME)?.value) {
    const signIn = new URL('/sign-in', request.url);
    if (pathname !== '/') signIn.searchParams.set('next', pathWithQuery);
    return NextResponse.redirect(signIn, 303);
  }
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, pathWithQuery);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

export const config = {
  // Pages only: API routes answer 401 themselves, and static assets need no session.
  matcher: ['/((?!api/|_next/|healthz|auth/|favicon.ico|.*\\.(?:png|jpg|svg|ico|css|js)$).*)'],
};
