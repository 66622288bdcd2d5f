// The requests a careless or hostile client sends, for any route of any of our HTTP services:
// broken multipart, wrong content types, broken chunked framing, bodies that disagree with their
// Content-Length, oversized headers, bad percent-encoding, invalid UTF-8 and NUL bytes, gzip and
// deflate bombs, duplicated headers. Each service's suite enumerates its own routes and runs these
// against the real process; `judgeAnswer` says what no route may ever answer.
import { gzipSync, deflateSync } from 'node:zlib';
import type { ReadinessBody } from '@staging/platform/readiness';
import { fieldsOf, parsedFields, stringField } from './json-fields';
import type { RawAnswer, RawPiece, RawRequest } from './raw-http';

export interface RouteUnderTest {
  method: string;
  /** A concrete, already encoded path (parameters filled in), with or without a query. */
  path: string;
}

export interface HostileCase {
  name: string;
  request: RawRequest;
  /** The client half-closed before the request was whole: closing without an answer is fair. */
  clientGaveUp?: true;
  /**
   * Refused by the HTTP parser or the router before any route of ours runs; a server we do not
   * own (Next's) answers those with its own body.
   */
  refusedBeforeRouting?: true;
}

export interface HostileContext {
  /** Extra request headers (a session cookie), as `Name: value` lines. */
  headerLines?: readonly string[];
}

const BOUNDARY = 'hostile-boundary';
/** Inflates to 64 MiB: bigger than any body limit of ours, small on the wire (about 64 KiB). */
const INFLATED_BYTES = 64 * 1024 * 1024;
let bombs: { gzip: Buffer; deflate: Buffer } | undefined;

function compressionBombs(): { gzip: Buffer; deflate: Buffer } {
  if (bombs === undefined) {
    const zeros = Buffer.alloc(INFLATED_BYTES);
    bombs = { gzip: gzipSync(zeros, { level: 9 }), deflate: deflateSync(zeros, { level: 9 }) };
  }
  return bombs;
}

interface RouteLayer {
  rawPath?: string;
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: { stack?: RouteLayer[]; router?: { stack: RouteLayer[] } };
}

/** A route of an Express app, with the handlers its route layer runs (middleware included). */
export interface ExpressRoute extends RouteUnderTest {
  handlers: unknown[];
}

/**
 * Method and path pattern of every route of an Express 5 app, through mounted routers and apps
 * (their mount paths prefixed), without the `all` catch-alls that answer 405. Read from the
 * router's own layers, so a route added anywhere is listed without naming it here.
 */
export function expressRoutes(app: unknown): ExpressRoute[] {
  const routes: ExpressRoute[] = [];
  const walk = (stack: RouteLayer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route !== undefined) {
        for (const pattern of [layer.route.path].flat()) {
          const handlers = layer.route.stack.map((inner) => inner.handle);
          for (const method of Object.keys(layer.route.methods).filter((name) => name !== '_all')) routes.push({ method: method.toUpperCase(), path: `${prefix}${pattern}`, handlers });
        }
        continue;
      }
      const nested = layer.handle.stack ?? layer.handle.router?.stack;
      if (nested !== undefined) walk(nested, `${prefix}${layer.rawPath === undefined || layer.rawPath === '/' ? '' : layer.rawPath}`);
    }
  };
  walk((app as { router: { stack: RouteLayer[] } }).router.stack, '');
  return routes;
}

/** A method that carries a body on this route: its own, unless it is a read. */
function bodyMethod(route: RouteUnderTest): string {
  return ['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(route.method) ? 'POST' : route.method;
}

function headBlock(method: string, path: string, context: HostileContext, headers: readonly string[]): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...(context.headerLines ?? []), ...headers, '', ''].join('\r\n');
}

function withBody(method: string, path: string, context: HostileContext, headers: readonly string[], body: Buffer | string): RawPiece[] {
  const bytes = Buffer.from(body);
  return [headBlock(method, path, context, [...headers, `Content-Length: ${bytes.length}`]), bytes];
}

function multipartPart(name: string, content: Buffer | string, fileName?: string): Buffer {
  const disposition = `form-data; name="${name}"${fileName === undefined ? '' : `; filename="${fileName}"`}`;
  const type = fileName === undefined ? '' : 'Content-Type: image/jpeg\r\n';
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
}

/** Bytes that start like a JPEG and are not one, so no case can ever store an image. */
const NOT_AN_IMAGE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 0x41)]);
const CLOSING = Buffer.from(`--${BOUNDARY}--\r\n`);
const MULTIPART = `Content-Type: multipart/form-data; boundary=${BOUNDARY}`;

/** The path with its last segment replaced by malformed percent-encoding (a cut UTF-8 sequence). */
function badlyEncoded(path: string): string {
  const [pathname = '/', query] = path.split('?');
  const segments = pathname.split('/');
  segments[segments.length - 1] = '%E0%A4%A';
  return `${segments.join('/')}${query === undefined ? '' : `?${query}`}`;
}

/** Every hostile case for one route. */
export function hostileCasesFor(route: RouteUnderTest, context: HostileContext = {}): HostileCase[] {
  const method = bodyMethod(route);
  const { path } = route;
  const json = 'Content-Type: application/json';
  const bombsNow = compressionBombs();
  const cases: HostileCase[] = [
    {
      name: 'multipart without its closing boundary',
      request: { pieces: withBody(method, path, context, [MULTIPART], multipartPart('file', NOT_AN_IMAGE, 'a.jpg')) },
    },
    {
      name: 'multipart with two files',
      request: {
        pieces: withBody(method, path, context, [MULTIPART], Buffer.concat([multipartPart('file', NOT_AN_IMAGE, 'a.jpg'), multipartPart('file', NOT_AN_IMAGE, 'b.jpg'), CLOSING])),
      },
    },
    {
      name: 'multipart with a field before the file',
      request: {
        pieces: withBody(method, path, context, [MULTIPART], Buffer.concat([multipartPart('evil', 'x'.repeat(5000)), multipartPart('file', NOT_AN_IMAGE, 'a.jpg'), CLOSING])),
      },
    },
    { name: 'multipart without a boundary parameter', request: { pieces: withBody(method, path, context, ['Content-Type: multipart/form-data'], 'x') } },
    { name: 'a wrong content type', request: { pieces: withBody(method, path, context, ['Content-Type: text/plain'], 'hello') } },
    { name: 'a body without a content type', request: { pieces: withBody(method, path, context, [], '{"a":1}') } },
    { name: 'truncated JSON', request: { pieces: withBody(method, path, context, [json], '{"email": "a@b.c", "pass') } },
    {
      name: 'invalid UTF-8 and NUL bytes in JSON',
      request: { pieces: withBody(method, path, context, [json], Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]), Buffer.from('","x":"\\u0000"}')])) },
    },
    {
      name: 'a chunked body with a chunk size that is not hex',
      refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Transfer-Encoding: chunked']), 'zz\r\n{"a":1}\r\n0\r\n\r\n'] },
    },
    {
      name: 'a chunked body that promises more than it sends',
      refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Transfer-Encoding: chunked']), 'ff\r\n{"a":1}\r\n'], endAfterSending: true },
      clientGaveUp: true,
    },
    {
      name: 'a body shorter than its Content-Length',
      refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Content-Length: 100']), '{"a":'], endAfterSending: true },
      clientGaveUp: true,
    },
    { name: 'a body longer than its Content-Length', refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Content-Length: 4']), '{"a":1, "garbage": true}'] } },
    {
      name: 'a gzip bomb',
      request: { pieces: withBody(method, path, context, [json, 'Content-Encoding: gzip'], bombsNow.gzip) },
    },
    {
      name: 'a deflate bomb',
      request: { pieces: withBody(method, path, context, [json, 'Content-Encoding: deflate'], bombsNow.deflate) },
    },
    { name: 'two different Content-Length headers', refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Content-Length: 2', 'Content-Length: 7']), '{}'] } },
    {
      name: 'a Transfer-Encoding that does not end in chunked',
      refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Transfer-Encoding: xchunked']), '{"a":1}'] },
    },
    { name: 'Content-Length beside Transfer-Encoding', refusedBeforeRouting: true, request: { pieces: [headBlock(method, path, context, [json, 'Content-Length: 2', 'Transfer-Encoding: chunked']), '2\r\n{}\r\n0\r\n\r\n'] } },
    { name: 'two Host headers', request: { pieces: [headBlock(route.method, path, context, ['Host: evil.example'])] } },
    { name: 'duplicated Content-Type and Cookie headers', request: { pieces: withBody(method, path, context, [json, 'Content-Type: text/plain', 'Cookie: sid=forged', 'Cookie: sid=other'], '{}') } },
    { name: 'a 64 KiB header', refusedBeforeRouting: true, request: { pieces: [headBlock(route.method, path, context, [`X-Padding: ${'a'.repeat(64 * 1024)}`])] } },
    { name: 'malformed percent-encoding in the path', refusedBeforeRouting: true, request: { pieces: [headBlock(route.method, badlyEncoded(path), context, [])] } },
    { name: 'a NUL byte and invalid UTF-8 in the path', refusedBeforeRouting: true, request: { pieces: [headBlock(route.method, `${path}%00%FF%FE`, context, [])] } },
    { name: 'a header value with invalid UTF-8 bytes', request: { pieces: [Buffer.from(headBlock(route.method, path, context, ['X-Name: \u00ff\u00fe']), 'latin1')] } },
  ];
  return cases;
}

/**
 * A request whose headers arrive one byte a second, as a slow-loris client sends them; a server
 * must neither die nor stop serving others meanwhile. One per service: it takes seconds, not ms.
 */
export function slowHeadersCase(route: RouteUnderTest, bytes = 12): HostileCase {
  const head = headBlock(route.method, route.path, {}, []);
  const pieces: RawPiece[] = [];
  for (const character of head.slice(0, bytes)) pieces.push(character, { pauseMs: 1000 });
  pieces.push(head.slice(bytes));
  return { name: 'headers sent one byte a second', request: { pieces } };
}

/** Whether a body is an error body a route documents; each service names its own shapes. */
export type ErrorBodyCheck = (body: Buffer) => boolean;

function parsedError(body: Buffer): Record<string, unknown> {
  return fieldsOf(parsedFields(body.toString('utf8'))['error']);
}

/** The error body of every api and worker route: `{ "error": { "code", "message" } }`. */
export const isRestErrorBody: ErrorBodyCheck = (body) => {
  const error = parsedError(body);
  return typeof error['code'] === 'string' && typeof error['message'] === 'string';
};

/** tRPC's error envelope with our stable code: `{ "error": { "message", "code", "data": { "appCode" } } }`. */
export const isTrpcErrorBody: ErrorBodyCheck = (body) => {
  const error = parsedError(body);
  return typeof error['message'] === 'string' && stringField(error['data'], 'appCode') !== undefined;
};

/**
 * A subscription refused before its stream opens answers with the error's status and tRPC's event
 * stream holding that one error: a `serialized-error` event whose data is tRPC's error shape.
 */
export const isTrpcStreamErrorBody: ErrorBodyCheck = (body) => {
  const event = /(?:^|\n)event: serialized-error\ndata: (.*)\n/.exec(body.toString('utf8'));
  return event?.[1] !== undefined && isTrpcErrorBody(Buffer.from(`{"error":${event[1]}}`));
};

/** The readiness probe of the api and the worker. */
const READINESS_PATH = '/readyz';

/**
 * A readiness probe's "not ready": 503 with the JSON body of `@staging/platform/readiness`. Its checks of
 * Postgres and Redis have a deadline a busy 2-core machine running the whole suite now and then
 * misses; that is the route doing its job whatever the request looked like, so no test that
 * refuses a 5xx counts it as one.
 */
export function isNotReadyAnswer(path: string, answer: { status: number | undefined; body: Buffer | string }): boolean {
  if (path !== READINESS_PATH || answer.status !== 503) return false;
  const notReady: ReadinessBody['status'] = 'not_ready';
  return stringField(parsedFields(answer.body.toString()), 'status') === notReady;
}

/**
 * What is wrong with `answer` to `hostileCase`, or undefined when nothing is: an answer must come
 * unless the client gave up first, must not be a 5xx (but for a readiness probe's "not ready"),
 * and a 4xx must carry the error body the route documents (`errorBody` undefined for pages, whose
 * 4xx is HTML). `path`: the route's, as the case was built for it. `ownServer` false: the HTTP
 * server and router are a framework's, whose refusals before routing carry its own body.
 */
export function judgeAnswer(
  hostileCase: HostileCase,
  answer: RawAnswer,
  errorBody: ErrorBodyCheck | undefined,
  { path, ownServer = true }: { path: string; ownServer?: boolean },
): string | undefined {
  if (answer.hung === true) return 'the server neither answered nor closed the connection';
  if (answer.status === undefined) {
    if (hostileCase.clientGaveUp === true) return undefined;
    return `the connection was dropped without an answer${answer.resetBy === undefined ? '' : ` (${answer.resetBy})`}`;
  }
  if (isNotReadyAnswer(path, answer)) return undefined;
  // One request, one answer: a second one on the connection means part of the request was read
  // as another request (what a request smuggler counts on).
  if (ownServer && answer.afterAnswer.length > 0) return `answered twice: ${JSON.stringify(answer.afterAnswer.toString('latin1').slice(0, 80))} after a ${answer.status}`;
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`;
  const bodyIsOurs = ownServer || hostileCase.refusedBeforeRouting !== true;
  if (answer.status >= 400 && errorBody !== undefined && bodyIsOurs && !errorBody(answer.body)) {
    return `answered ${answer.status} without the documented error body: ${JSON.stringify(answer.body.toString('utf8').slice(0, 120))}`;
  }
  return undefined;
}
