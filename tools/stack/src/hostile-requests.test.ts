import { describe, expect, it } from '@jest/globals';
import { isNotReadyAnswer, isRestErrorBody, isTrpcStreamErrorBody, judgeAnswer } from './hostile-requests';
import type { HostileCase } from './hostile-requests';
import type { RawAnswer } from './raw-http';

const someCase: HostileCase = { name: 'a case', request: { pieces: [] } };

function answer(status: number | undefined, body: unknown = ''): RawAnswer {
  return { status, headers: {}, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), afterAnswer: Buffer.alloc(0) };
}

describe('judgeAnswer', () => {
  it('takes "not ready" from a readiness probe as the route working', () => {
    const notReady = answer(503, { status: 'not_ready', checks: { database: 'failed', redis: 'ok' } });
    expect(judgeAnswer(someCase, notReady, isRestErrorBody, { path: '/readyz' })).toBeUndefined();
    // Read as text by a fetch-based test, as bytes by the raw sweeps.
    expect(isNotReadyAnswer('/readyz', { status: 503, body: '{"status":"not_ready"}' })).toBe(true);
    expect(isNotReadyAnswer('/readyz', { status: 503, body: 'Service Unavailable' })).toBe(false);
    expect(isNotReadyAnswer('/readyz', { status: 503, body: '{"status":"unavailable"}' })).toBe(false);
  });

  it('fails any other 5xx, from the readiness probe or elsewhere', () => {
    const notReady = answer(503, { status: 'not_ready' });
    expect(judgeAnswer(someCase, notReady, isRestErrorBody, { path: '/healthz' })).toMatch(/^answered 503/);
    expect(judgeAnswer(someCase, answer(500, { status: 'not_ready' }), isRestErrorBody, { path: '/readyz' })).toMatch(/^answered 500/);
    expect(judgeAnswer(someCase, answer(503, 'Service Unavailable'), isRestErrorBody, { path: '/readyz' })).toMatch(/^answered 503/);
    expect(judgeAnswer(someCase, answer(503, { status: 'ready' }), isRestErrorBody, { path: '/readyz' })).toMatch(/^answered 503/);
  });

  it('wants an answer unless the client gave up, and the documented body on a 4xx', () => {
    const errorBody = { error: { code: 'BAD_REQUEST', message: 'Bad request' } };
    expect(judgeAnswer(someCase, answer(undefined), isRestErrorBody, { path: '/x' })).toMatch(/dropped without an answer/);
    expect(judgeAnswer({ ...someCase, clientGaveUp: true }, answer(undefined), isRestErrorBody, { path: '/x' })).toBeUndefined();
    expect(judgeAnswer(someCase, answer(400, 'Bad Request'), isRestErrorBody, { path: '/x' })).toMatch(/without the documented error body/);
    expect(judgeAnswer(someCase, answer(400, errorBody), isRestErrorBody, { path: '/x' })).toBeUndefined();
    const beforeRouting = { ...someCase, refusedBeforeRouting: true as const };
    expect(judgeAnswer(beforeRouting, answer(400, 'Bad Request'), isRestErrorBody, { path: '/x', ownServer: false })).toBeUndefined();
  });

  it('refuses a second answer on the connection of one request', () => {
    const twice = { ...answer(404, { error: { code: 'NOT_FOUND', message: 'Not found' } }), afterAnswer: Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n') };
    expect(judgeAnswer(someCase, twice, isRestErrorBody, { path: '/x' })).toMatch(/^answered twice: "HTTP\/1.1 400 Bad Request/);
  });
});

describe('isTrpcStreamErrorBody', () => {
  it("reads the error event of a refused subscription, and nothing else", () => {
    const refused = 'event: connected\ndata: {"reconnectAfterInactivityMs":40000}\n\n\nevent: serialized-error\ndata: {"message":"Too many live connections for this user","code":-32029,"data":{"code":"TOO_MANY_REQUESTS","appCode":"TOO_MANY_REQUESTS","httpStatus":429}}\n\n';
    expect(isTrpcStreamErrorBody(Buffer.from(refused))).toBe(true);
    expect(isTrpcStreamErrorBody(Buffer.from('event: serialized-error\ndata: {"message":"no code"}\n\n'))).toBe(false);
    expect(isTrpcStreamErrorBody(Buffer.from('{"error":{"code":"BAD_REQUEST","message":"x"}}'))).toBe(false);
  });
});
