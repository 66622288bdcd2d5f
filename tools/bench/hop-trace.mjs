// Loaded into the worker by the time-to-result benchmark (`node --import`), never by the image:
// one JSON line on stdout when a fetch starts and when its response has arrived whole (the
// output's download), and when a node:http request is answered (the object store's PUT), so the
// benchmark can split the worker's output step, which logs no line of its own between them, into
// the wait for an output slot, download, validation and storage. Paths only: no query string (a signed URL's signature), no header, no byte.
import { subscribe } from 'node:diagnostics_channel';

/** Plain JS, as the worker bundle runs under plain node. */
function trace(hop, request) {
  process.stdout.write(`${JSON.stringify({ hopTrace: hop, t: Date.now(), method: request.method, path: String(request.path).split('?')[0] })}\n`);
}

subscribe('undici:request:create', ({ request }) => trace('fetch_start', request));
subscribe('undici:request:trailers', ({ request }) => trace('fetch_done', request));
subscribe('http.client.response.finish', ({ request }) => trace('http_answered', request));
