// A client that sends exactly the bytes it is given, for tests that must send what fetch refuses
// to: bodies shorter or longer than Content-Length, broken chunk sizes, unterminated multipart,
// headers a byte at a time. It reads the answer with Node's own HTTP parser.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A piece of the request: bytes to write, or a pause before the next piece. */
export type RawPiece = string | Buffer | { pauseMs: number };

export interface RawRequest {
  pieces: readonly RawPiece[];
  /**
   * Half-closes our side after the last piece, as a client that stops sending would. Without it
   * the socket stays open and only the server's answer (or its timeouts) ends the exchange.
   */
  endAfterSending?: boolean;
  /** Gives up on a server that neither answers nor closes: the answer then has `hung`. */
  hangGuardMs?: number;
}

export interface RawAnswer {
  /** Undefined when the server closed or reset the connection without an answer. */
  status: number | undefined;
  headers: Record<string, string>;
  body: Buffer;
  /** Set when the connection ended by a reset (ECONNRESET, EPIPE) rather than an orderly close. */
  resetBy?: string;
  /** Set when the server kept the connection open past the request's hang guard. */
  hung?: true;
  /**
   * What the server wrote after an answer with a Content-Length: a second answer to one request
   * (or to the rest of its bytes) shows up here. Empty otherwise.
   */
  afterAnswer: Buffer;
}

/** Parses one HTTP/1.1 response from the bytes a server wrote before it closed. */
export function parseRawResponse(bytes: Buffer): Omit<RawAnswer, 'resetBy' | 'hung'> {
  const headerEnd = bytes.indexOf('\r\n\r\n');
  if (headerEnd < 0) return { status: undefined, headers: {}, body: Buffer.alloc(0), afterAnswer: Buffer.alloc(0) };
  const [statusLine = '', ...lines] = bytes.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(headerEnd + 4);
  let afterAnswer: Buffer = Buffer.alloc(0);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) {
    afterAnswer = body.subarray(Number(headers['content-length']));
    body = body.subarray(0, Number(headers['content-length']));
  }
  return { status: Number.isNaN(status) ? undefined : status, headers, body, afterAnswer };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

const DEFAULT_HANG_GUARD_MS = 90_000;

/**
 * Sends `request` to `origin` on a fresh connection and resolves when the server has closed it.
 * Every request should carry `Connection: close`, so that a server which answered also closes.
 */
export async function sendRaw(origin: string, request: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  const socket: Socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  const received: Buffer[] = [];
  let resetBy: string | undefined;
  const closed = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      resetBy = error.code ?? error.message;
    });
    socket.on('close', () => resolve());
    // Our write side is ours to end; once the server has ended its side nothing more will come.
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  for (const piece of request.pieces) {
    if (socket.destroyed || socket.writableEnded) break;
    if (typeof piece === 'object' && 'pauseMs' in piece) await sleep(piece.pauseMs);
    else await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
  }
  if (request.endAfterSending === true && !socket.destroyed) socket.end();
  let hung = false;
  const guard = setTimeout(() => {
    hung = true;
    socket.destroy();
  }, request.hangGuardMs ?? DEFAULT_HANG_GUARD_MS);
  await closed;
  clearTimeout(guard);
  const answer: RawAnswer = parseRawResponse(Buffer.concat(received));
  if (hung) return { ...answer, hung: true };
  return resetBy === undefined ? answer : { ...answer, resetBy };
}
