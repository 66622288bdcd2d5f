import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BRIDGE_READINESS_HELP, parseBridgeReadinessArgs } from './bridge-readiness-args';
import { UsageError } from './cli-parse';
import { DOCTOR_HELP, parseDoctorArgs } from './doctor-args';
import { localStackFiles } from './local-stack';

let root: string;
const files = () => localStackFiles(root);

function writeLocalStack(roles: readonly string[], logs: readonly string[]): void {
  mkdirSync(path.join(root, '.stack', 'env'), { recursive: true });
  mkdirSync(path.join(root, '.stack', 'logs'), { recursive: true });
  for (const role of roles)
    writeFileSync(path.join(root, '.stack', 'env', `${role}.env`), `ROLE_FILE=${role}\nQUEUE_SUFFIX=\n`);
  for (const service of logs) writeFileSync(path.join(root, '.stack', 'logs', `${service}.log`), '');
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'ops-cli-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('doctor arguments', () => {
  it('--help (also among other arguments) asks for the help text, which names every option', () => {
    expect(parseDoctorArgs(['--help'], {}, files())).toEqual({ kind: 'help' });
    expect(parseDoctorArgs(['--role', 'api', '-h'], {}, files())).toEqual({ kind: 'help' });
    for (const option of ['--role', '--env-file', '--local', '--help']) expect(DOCTOR_HELP).toContain(option);
  });

  it('--local checks every role with the env files the local stack wrote', () => {
    writeLocalStack(['web', 'api', 'worker'], []);
    const command = parseDoctorArgs(['--local'], { ROLE_FILE: 'current' }, files());
    expect(command).toEqual({
      kind: 'run',
      roles: (['web', 'api', 'worker'] as const).map((role) => ({
        role,
        env: { ROLE_FILE: role, QUEUE_SUFFIX: '' },
        source: files().envFile(role),
      })),
    });
  });

  it('--local without a running stack says how to start one', () => {
    writeLocalStack(['web', 'api'], []);
    expect(() => parseDoctorArgs(['--local'], {}, files())).toThrow(/worker\.env is missing; start the local stack with `npm start`/);
    expect(() => parseDoctorArgs(['--local', '--role', 'api'], {}, files())).toThrow(UsageError);
  });

  it('keeps --role/--env-file and refuses what it does not know', () => {
    expect(parseDoctorArgs(['--role', 'worker'], { A: '1' }, files())).toEqual({
      kind: 'run',
      roles: [{ role: 'worker', env: { A: '1' }, source: 'current environment' }],
    });
    expect(() => parseDoctorArgs(['--verbose'], {}, files())).toThrow('unknown argument --verbose');
    expect(() => parseDoctorArgs([], {}, files())).toThrow(/at least one role, or --local/);
  });
});

describe('bridge-readiness arguments', () => {
  it('--help asks for the help text, which names every option', () => {
    expect(parseBridgeReadinessArgs(['--help'], {}, files())).toEqual({ kind: 'help' });
    for (const option of ['--env-file', '--log-file', '--local', '--clients-canonical', '--product-approved'])
      expect(BRIDGE_READINESS_HELP).toContain(option);
  });

  it('--local reads the api env file and every service log the local stack wrote', () => {
    writeLocalStack(['api'], ['api', 'worker']);
    expect(parseBridgeReadinessArgs(['--local', '--product-approved'], {}, files())).toEqual({
      kind: 'run',
      env: { ROLE_FILE: 'api', QUEUE_SUFFIX: '' },
      logFiles: [files().logFile('api'), files().logFile('worker')],
      clientsCanonical: false,
      productApproved: true,
    });
  });

  it('--local without a running stack, or mixed with explicit files, is a usage error', () => {
    expect(() => parseBridgeReadinessArgs(['--local'], {}, files())).toThrow(/api\.env is missing/);
    writeLocalStack(['api'], []);
    expect(() => parseBridgeReadinessArgs(['--local', '--log-file', 'x.log'], {}, files())).toThrow(UsageError);
  });
});
