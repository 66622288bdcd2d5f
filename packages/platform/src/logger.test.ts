import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createLogger } from './logger';
import type { Logger } from './logger';

function memoryLogger(service = 'test-service'): { logger: Logger; lines: () => Record<string, unknown>[]; raw: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger({ service, level: 'debug', destination });
  const raw = (): string => chunks.join('');
  return { logger, raw, lines: () => raw().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const SECRETS = {
  token: 'r8_PROVIDERTOKEN1',
  signing: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  cookie: 'session=COOKIEVALUE',
  signature: 'X-Amz-Signature=SIGNATUREVALUE',
  password: 'DBPASSWORD',
};

describe('createLogger', () => {
  it('writes one JSON line per event with service, level label and ISO time', () => {
    const { logger, lines } = memoryLogger('worker');
    logger.info({ event: 'worker_started', jobId: 'job-1', queueAttempt: 1 }, 'staging job started');
    const [line] = lines();
    expect(line).toMatchObject({
      level: 'info',
      service: 'worker',
      event: 'worker_started',
      jobId: 'job-1',
      queueAttempt: 1,
      msg: 'staging job started',
    });
    expect(new Date(String(line?.time)).toISOString()).toBe(line?.time);
  });

  it('respects the level', () => {
    const { logger, raw } = memoryLogger();
    logger.trace('too detailed');
    expect(raw()).toBe('');
  });

  it('never writes tokens, signing secrets, cookies, signed URLs, passwords or bytes', () => {
    const { logger, raw } = memoryLogger();
    logger.info({
      token: SECRETS.token,
      provider: { token: SECRETS.token, apiToken: SECRETS.token },
      config: { nested: { webhookSigningSecret: SECRETS.signing, providerApiToken: SECRETS.token } },
      req: { method: 'POST', url: `/api/upload?${SECRETS.signature}`, headers: { authorization: `Bearer ${SECRETS.token}`, cookie: SECRETS.cookie } },
      res: { statusCode: 200, headers: { 'set-cookie': [SECRETS.cookie] } },
      signedUrl: `https://s3.example.com/o.jpg?${SECRETS.signature}`,
      sourceUrl: `https://replicate.delivery/x/out.png?${SECRETS.signature}`,
      database: { password: SECRETS.password },
      image: Buffer.from('BYTESBYTESBYTES'),
    });
    logger.warn(`download from https://s3.example.com/o.jpg?${SECRETS.signature} with Bearer ${SECRETS.token} failed`);
    logger.error({ err: new Error(`GET https://s3.example.com/k?${SECRETS.signature}: 403 (${SECRETS.signing})`) }, 'upload failed');
    const cause = new Error(`connect postgres://app:${SECRETS.password}@db/app refused`);
    logger.error(new Error('outer', { cause }));
    logger.child({ token: SECRETS.token, jobId: 'j' }).info('child');
    logger.child({ jobId: 'j2' }).child({ auth: { apiToken: SECRETS.token } }).info('grandchild');

    const output = raw();
    for (const secret of ['PROVIDERTOKEN1', 'MfKQ9r8', 'COOKIEVALUE', 'SIGNATUREVALUE', SECRETS.password, 'BYTESBYTES']) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('https://s3.example.com/o.jpg');
    expect(output).toContain('upload failed');
    expect(output).toContain('"jobId":"j"');
    expect(output).toContain('"jobId":"j2","auth":{"apiToken":"[redacted]"}');
  });

  it('keeps error type, message, stack and cause after scrubbing', () => {
    const { logger, lines } = memoryLogger();
    const cause = new Error(`GET https://cdn.example.com/a.png?${SECRETS.signature} 404`);
    logger.error({ err: Object.assign(new Error('download failed', { cause }), { code: 'DOWNLOAD_FAILED' }) }, 'boom');
    const err = lines()[0]?.err as Record<string, unknown>;
    expect(err).toMatchObject({ type: 'Error', message: 'download failed', code: 'DOWNLOAD_FAILED' });
    expect(String(err.stack)).toContain('download failed');
    expect(err.cause).toMatchObject({ type: 'Error', message: 'GET https://cdn.example.com/a.png 404' });
  });

  it('redacts request logs built by a req/res serializer, as pino-http does', async () => {
    const { logger, lines, raw } = memoryLogger('api');
    const http = logger.child({}, { serializers: { req: pino.stdSerializers.req, res: pino.stdSerializers.res } });
    const server = createServer((req, res) => {
      res.setHeader('set-cookie', SECRETS.cookie);
      res.setHeader('location', `https://s3.example.com/o.jpg?${SECRETS.signature}`);
      res.statusCode = 302;
      res.end();
      http.info({ req, res }, 'request completed');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/api/upload?${SECRETS.signature}`, {
        redirect: 'manual',
        headers: { authorization: `Bearer ${SECRETS.token}`, cookie: SECRETS.cookie, 'webhook-signature': 'v1,SIGNATUREHEADER' },
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const [line] = lines();
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/upload', headers: { authorization: '[redacted]', cookie: '[redacted]' } },
      res: { statusCode: 302, headers: { 'set-cookie': '[redacted]', location: 'https://s3.example.com/o.jpg' } },
    });
    for (const secret of ['PROVIDERTOKEN1', 'COOKIEVALUE', 'SIGNATUREVALUE', 'SIGNATUREHEADER']) expect(raw()).not.toContain(secret);
  });
});
