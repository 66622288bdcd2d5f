import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's parser codes for a request whose headers were too large; everything else is a plain 400. */
const HEADERS_TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW']);
const TIMED_OUT = new Set(['ERR_HTTP_REQUEST_TIMEOUT']);

function statusOf(error: NodeJS.ErrnoException): { status: number; reason: string; message: string } {
  if (error.code !== undefined && HEADERS_TOO_LARGE.has(error.code)) {
    return { status: 431, reason: 'Request Header Fields Too Large', message: 'Request headers too large' };
  }
  if (error.code !== undefined && TIMED_OUT.has(error.code)) {
    return { status: 408, reason: 'Request Timeout', message: 'Request took too long to arrive' };
  }
  return { status: 400, reason: 'Bad Request', message: 'Malformed HTTP request' };
}

/**
 * Answers requests Node's HTTP parser refuses before any route sees them (broken chunk sizes,
 * conflicting Content-Length, oversized headers, headers too slow to arrive) with the same JSON
 * error body as every route, instead of Node's bare `400 Bad Request` without a body. A socket
 * the client already reset gets nothing: there is nobody to answer.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, message } = statusOf(error);
    const body = JSON.stringify({ error: { code: 'BAD_REQUEST', message } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
