import 'server-only';
import { clientAddressFromHeaders } from '@staging/trpc/client-ip';
import { getWebDeps } from './deps';
import { crossSiteRefused, isSameOriginRequest } from './same-origin';

// Connection-level headers describe one hop and must not be copied to the next one.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

// Dropped after the web app itself checked them: the api then sees a same-site caller and does
// not need to know the browser-facing origin of every web deployment.
const BROWSER_ORIGIN_HEADERS = new Set(['origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'sec-fetch-user']);

/**
 * Forwards a browser request (image upload, image edits, image bytes, public reads) to the api
 * service and streams the answer back. Done at request time rather than with next.config
 * rewrites, whose destinations are frozen into the build: API_ORIGIN is a deployment setting.
 * The session cookie travels with the request, so the api authorizes exactly as if the browser
 * had called it directly, and the browser never needs CORS.
 */
export async function forwardToApi(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request)) return crossSiteRefused();
  const incoming = new URL(request.url);
  const target = `${getWebDeps().config.apiOrigin}${incoming.pathname}${incoming.search}`;

  const headers = new Headers();
  request.headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !BROWSER_ORIGIN_HEADERS.has(lower) && !lower.startsWith('x-forwarded-')) {
      headers.set(name, value);
    }
  });
  // The visitor's address as this app resolved it, for the api's per-address read limits: without
  // it every visitor would count as this web server (the api trusts private hops, see operations.md).
  headers.set('x-forwarded-for', clientAddressFromHeaders(request.headers));
  headers.set('x-forwarded-host', request.headers.get('host') ?? incoming.host);
  headers.set('x-forwarded-proto', incoming.protocol.replace(':', ''));

  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      redirect: 'manual',
      signal: request.signal,
      // Streams the upload instead of buffering it in the web process.
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    return Response.json({ error: { code: 'INTERNAL', message: 'The api service is unreachable' } }, { status: 502 });
  }

  const responseHeaders = new Headers();
  upstream.headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    // fetch already decoded the body, so its encoding and length no longer apply.
    if (HOP_BY_HOP.has(lower) || lower === 'content-encoding' || lower === 'set-cookie') return;
    responseHeaders.set(name, value);
  });
  for (const cookie of upstream.headers.getSetCookie()) responseHeaders.append('set-cookie', cookie);
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
}
