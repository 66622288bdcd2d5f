import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's parser codes for a request whose headers were too large; everything else is a plain 400. */
const HEADERS_TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW']);
const TIMED_OUT = new Set(['ERR_HTTP_REQUEST_TIMEOUT']);

interface RefusalAnswer {
  status: number;
  reason: string;
  message: string;
}

const MALFORMED: RefusalAnswer = { status: 400, reason: 'Bad Request', message: 'Malformed HTTP request' };

function statusOf(error: NodeJS.ErrnoException): RefusalAnswer {
  if (error.code !== undefined && HEADERS_TOO_LARGE.has(error.code)) {
    return { status: 431, reason: 'Request Header Fields Too Large', message: 'Request headers too large' };
  }
  if (error.code !== undefined && TIMED_OUT.has(error.code)) {
    return { status: 408, reason: 'Request Timeout', message: 'Request took too long to arrive' };
  }
  return MALFORMED;
}

/**
 * Writes the one answer to a request whose framing cannot be trusted and closes the connection:
 * nothing after it on this connection can be read as a request. Ending the socket first also
 * tells the parser's own error, should the rest of the bytes raise one, that nobody is listening
 * (the socket is no longer writable).
 */
function answerAndClose(socket: Duplex, { status, reason, message }: RefusalAnswer): void {
  const body = JSON.stringify({ error: { code: 'BAD_REQUEST', message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * A request whose Transfer-Encoding does not end in `chunked` (`xchunked`, `gzip`): the length of
 * its body cannot be known, so RFC 9112 section 6.3 has the server answer 400 and close. Node's
 * parser hands such a request to the routes first and fails on its body afterwards, which made a
 * second answer on the same connection after whatever the route said.
 */
function hasUnknownBodyLength(headers: IncomingHttpHeaders): boolean {
  const codings = headers['transfer-encoding'];
  if (codings === undefined) return false;
  const last = codings.split(',').at(-1)?.trim().toLowerCase();
  return last !== 'chunked';
}

/**
 * The HTTP server of every service of ours: `handler` serves the requests whose framing is sound.
 * The rest get one JSON 400 (431 for oversized headers, 408 for headers too slow to arrive) and a
 * closed connection, never Node's bare `400 Bad Request` without a body: requests Node's parser
 * refuses (broken chunk sizes, conflicting Content-Length) and requests whose body has no knowable
 * length. When the parser fails in the body of a request a route has already begun to answer
 * (a 404 does not wait for the body), that answer is the only one: the connection closes after
 * it instead of carrying a second. A socket the client already reset gets nothing.
 */
export function createServiceHttpServer(handler: RequestListener): Server {
  // The request each connection is on, to tell a failed body from a failed next request.
  const current = new WeakMap<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  const server = createServer((req, res) => {
    current.set(req.socket, { req, res });
    if (hasUnknownBodyLength(req.headers)) {
      answerAndClose(req.socket, MALFORMED);
      return;
    }
    handler(req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const exchange = current.get(socket);
    if (exchange !== undefined && !exchange.req.complete && exchange.res.headersSent) {
      // end, not destroy: what the route wrote is still on its way out.
      socket.end();
      return;
    }
    answerAndClose(socket, statusOf(error));
  });
  return server;
}

/** The TCP port a listening `server` is bound to: the one the OS picked when it was asked for 0. */
export function listeningPort(server: Pick<Server, 'address'>): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The server is not listening on a TCP port');
  return address.port;
}
