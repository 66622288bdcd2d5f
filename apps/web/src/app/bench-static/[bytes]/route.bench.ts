// The public-pages benchmark's baseline (tools/bench/public-pages-bench.ts): a static HTML page of
// `bytes` bytes that Next.js renders once, keeps in its response cache and then serves as it serves
// any prerendered page, through the same `next start` process and proxy as the listing and search
// pages. It is a route in a `BENCH_STATIC_PAGE=1` build only (next.config.ts); a production build
// has no such URL.
//
// Why a route handler and not a page or a file in public/: the root layout renders per request
// (force-dynamic, for the CSP nonce), so no page under it can be prerendered today; a route
// handler has no layout. public/ files are sent by Next's file server, not its prerender cache,
// and would have to be written before the build, when the listing page's size is not known yet;
// here the bench asks for exactly the size it measured, and the first request renders it.

const MAX_BYTES = 4 * 1024 * 1024;

export const dynamic = 'force-static';
export const dynamicParams = true;

export function generateStaticParams(): { bytes: string }[] {
  return [];
}

const HEAD = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Static page</title></head><body><main>';
const TAIL = '</main></body></html>';
const PARAGRAPH = '<p>A static paragraph of about the length of a listing description, repeated to the size asked for.</p>';

export async function GET(_request: Request, { params }: { params: Promise<{ bytes: string }> }): Promise<Response> {
  const bytes = Number((await params).bytes);
  if (!Number.isInteger(bytes) || bytes < HEAD.length + TAIL.length || bytes > MAX_BYTES) return new Response('bad size', { status: 404 });
  const room = bytes - HEAD.length - TAIL.length;
  const body = PARAGRAPH.repeat(Math.floor(room / PARAGRAPH.length)) + ' '.repeat(room % PARAGRAPH.length);
  return new Response(HEAD + body + TAIL, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
