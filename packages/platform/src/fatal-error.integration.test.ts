// Runs a small service process that installs the policy and fails, against a local Sentry stand-in.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSentryCaptureServer } from './testing/sentry-capture';
import type { SentryCaptureServer } from './testing/sentry-capture';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testing', 'fatal-error-child.ts');

let capture: SentryCaptureServer;
beforeAll(async () => {
  capture = await startSentryCaptureServer();
});
afterAll(async () => {
  await capture.close();
});
beforeEach(() => {
  capture.envelopes.length = 0;
});

async function runChild(mode: string): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, mode], {
    env: { ...process.env, TEST_SENTRY_DSN: capture.dsn },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (exitCode) => resolve(exitCode)));
  const lines = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines };
}

describe('exitOnFatalError', () => {
  it.each([
    ['throw', 'uncaughtException', 'thrown and not caught'],
    ['reject', 'unhandledRejection', 'rejected and not handled'],
  ])('on %s: one fatal log line with the error, one fatal event sent, then exit code 1', async (mode, origin, message) => {
    const { code, lines } = await runChild(mode);
    expect(code).toBe(1);
    const fatal = lines.filter((line) => line['level'] === 'fatal');
    expect(fatal).toEqual([
      expect.objectContaining({ service: 'fatal-test', event: 'fatal_error', origin, err: expect.objectContaining({ message }) as unknown }),
    ]);
    // Sent before the exit, and once: the SDK's own process handlers must not capture it again.
    const events = capture.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ level: 'fatal', exception: { values: [expect.objectContaining({ value: message })] } });
  });

  it('a client that hung up mid-request is a warning, not a reason to exit or to page anyone', async () => {
    const { code, lines } = await runChild('client-abort');
    expect(code).toBe(0);
    expect(lines.filter((line) => line['level'] === 'fatal')).toEqual([]);
    expect(lines.filter((line) => line['event'] === 'client_aborted')).toHaveLength(1);
    expect(capture.events()).toHaveLength(0);
  });

  it("in `report` mode an unhandled rejection is logged and reported but the process keeps running", async () => {
    const { code, lines } = await runChild('reject-report');
    expect(code).toBe(0);
    expect(lines.filter((line) => line['level'] === 'fatal')).toEqual([]);
    expect(lines.filter((line) => line['level'] === 'error')).toEqual([
      expect.objectContaining({ event: 'unhandled_rejection', err: expect.objectContaining({ message: 'rejected and not handled' }) as unknown }),
    ]);
    expect(capture.events()).toHaveLength(1);
  });
});
