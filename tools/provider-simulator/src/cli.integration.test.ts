import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HANG_GUARD_MS } from './test-helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, 'cli.ts');

/**
 * Node itself runs the CLI (tsx as a loader), not tsx's binary: that binary relays a signal and
 * SIGKILLs its child and ends with 143 when the child does not confirm receipt within tens of
 * milliseconds, which a busy machine misses.
 */
function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('cli', () => {
  it('starts on SIM_PORT, prints its URL, serves the API and stops on SIGTERM', async () => {
    const proc = run({ SIM_PORT: '0', SIM_TOKEN: 'cli-token', SIM_WEBHOOK_SECRET: `whsec_${Buffer.from('cli secret').toString('base64')}` });
    const started = await new Promise<{ url: string; mode: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line: ${JSON.stringify(proc.output())}`)), HANG_GUARD_MS);
      proc.child.stdout.on('data', () => {
        const line = proc.output().stdout.split('\n').find((l) => l.includes('provider_simulator_started'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as { url: string; mode: string });
        }
      });
    });
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(started).toMatchObject({ mode: 'strict' });
    expect((await fetch(`${started.url}/predictions`)).status).toBe(401);
    expect((await fetch(`${started.url}/predictions`, { headers: { authorization: 'Bearer cli-token' } })).status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('refuses an unknown SIM_MODE', async () => {
    const proc = run({ SIM_PORT: '0', SIM_TOKEN: 't', SIM_WEBHOOK_SECRET: 'whsec_abc', SIM_MODE: 'kind' });
    expect(await proc.exited).toBe(1);
    expect(proc.output().stderr).toContain('SIM_MODE must be strict or lenient');
  });

  it('refuses to start without SIM_TOKEN', async () => {
    const proc = run({ SIM_PORT: '0', SIM_WEBHOOK_SECRET: 'whsec_abc' });
    expect(await proc.exited).toBe(1);
    expect(proc.output().stderr).toContain('SIM_TOKEN is required');
  });
});
