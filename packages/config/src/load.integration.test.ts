// Boots a real process with a broken environment and reads what an operator would see.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiTestEnv, TEST_SECRETS, webTestEnv, workerTestEnv } from './test-env';
import type { Env } from './env-reader';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
const cli = path.join(here, 'check-config-cli.ts');

function boot(role: string, env: Env): { status: number | null; stdout: string; stderr: string } {
  // Only the given variables plus PATH: the parent's environment must not fill any gap.
  const result = spawnSync(tsx, [cli, role], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('loadConfigOrExit in a real process', () => {
  it('exits 1 with one message listing every worker problem and no secret value', () => {
    const leaked = {
      AUTH_SECRET: TEST_SECRETS.AI_STAGING_USER_HASH_SECRET,
      AI_STAGING_USER_HASH_SECRET: TEST_SECRETS.AI_STAGING_USER_HASH_SECRET,
      PROVIDER_WEBHOOK_SIGNING_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
      PROVIDER_API_TOKEN: 'r8_has whitespace SECRETTOKEN',
      S3_SECRET_ACCESS_KEY: TEST_SECRETS.S3_SECRET_ACCESS_KEY,
      DATABASE_URL: 'mysql://dbuser:DBPASSWORD@db.example.com/app',
    };
    const { status, stdout, stderr } = boot('worker', {
      ...leaked,
      S3_BUCKET: 'No_Such_Bucket',
      PROVIDER_WEBHOOK_BASE_URL: 'http://127.0.0.1:4000/',
      AI_STAGING_OUTPUT_COMPRESSION: '101',
    });

    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.match(/Invalid worker configuration/g)).toHaveLength(1);
    const listed = stderr.split('\n').filter((line) => line.startsWith('  - ')).map((line) => line.slice(4).split(':')[0]);
    expect(listed).toEqual([
      'PROVIDER_WEBHOOK_SIGNING_SECRET',
      'DATABASE_URL',
      'VALKEY_URL',
      'AI_STAGING_OUTPUT_COMPRESSION',
      'S3_ACCESS_KEY_ID',
      'S3_BUCKET',
      'PROVIDER_API_TOKEN',
      'PROVIDER_WEBHOOK_BASE_URL',
      'PROVIDER_WEBHOOK_BASE_URL',
      'PROVIDER_WEBHOOK_BASE_URL',
      'AI_STAGING_USER_HASH_SECRET',
    ]);
    expect(stderr).toContain(`Invalid worker configuration (${listed.length} problems)`);
    for (const secret of [...Object.values(leaked), 'SECRETTOKEN', 'DBPASSWORD', 'whsec_MfKQ']) {
      expect(stderr).not.toContain(secret);
    }
  });

  it.each([
    ['web', 'PROVIDER_API_TOKEN', webTestEnv({ PROVIDER_API_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN })],
    ['api', 'PROVIDER_API_TOKEN', apiTestEnv({ PROVIDER_API_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN })],
    [
      'worker',
      'PROVIDER_WEBHOOK_SIGNING_SECRET',
      workerTestEnv({ PROVIDER_WEBHOOK_SIGNING_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET }),
    ],
  ] as const)('the %s role refuses to start holding %s', (role, variable, env) => {
    const { status, stderr } = boot(role, env);
    expect(status).toBe(1);
    expect(stderr).toContain(`${variable}: must not be set on the ${role}`);
    expect(stderr).not.toContain(env[variable]);
  });

  it.each([
    ['web', webTestEnv()],
    ['api', apiTestEnv()],
    ['worker', workerTestEnv({ QUEUE_DASHBOARD_USER: 'ops' })],
  ])('boots the %s role with a valid environment', (role, env) => {
    const { status, stdout, stderr } = boot(role, env);
    expect(stderr).toBe(role === 'worker' ? 'warning: queue dashboard disabled: QUEUE_DASHBOARD_PASSWORD is not set (both are required to expose it)\n' : '');
    expect(status).toBe(0);
    expect(stdout).toBe(`${role} configuration OK (producer values 4f1dbecc720f0f87, staging enabled)\n`);
  });
});
