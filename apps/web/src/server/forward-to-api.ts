import 'server-only';
import { getWebDeps } from './deps';
import { crossSiteRefused, isSameOriginRequest, requestSourceOf } from './same-origin';

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
  const source = requestSourceOf(request);
  if (!isSameOriginRequest(request, source)) return crossSiteRefused();
  const incoming = new URL(request.url);
  const target = `${getWebDeps().config.apiOrigin}${incoming.pathname}${incoming.search}`;

  const headers = new Headers();
  request.headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !BROWSER_ORIGIN_HEADERS.has(lower) && !lower.startsWith('x-forwarded-')) {
      headers.set(name, value);
    }
  });
  // The web is a proxy in front of the api here: it passes on what its own trusted-proxy rule
  // believes, one entry each and nothing the client wrote, so an api trusting one hop or more
  // reads the browser's address, host and scheme (docs/decisions/api.md "Trusted proxy hops").
  if (source.clientIp !== undefined) headers.set('x-forwarded-for', source.clientIp);
  headers.set('x-forwarded-host', source.host ?? incoming.host);
  headers.set('x-forwarded-proto', source.https ? 'https' : 'http');

  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  // The DOM's RequestInit does not know `duplex` yet; Node's fetch requires it with a stream body.
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers,
    body: hasBody ? request.body : undefined,
    redirect: 'manual',
    signal: request.signal,
    // Streams the upload instead of buffering it in the web process.
    ...(hasBody ? { duplex: 'half' } : {}),
  };
  let upstream: Response;
  try {
    upstream = await fetch(target, init);
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
