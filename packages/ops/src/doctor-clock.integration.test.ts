/**
 * The doctor's clock checks against a provider simulator whose clock is 10 minutes behind, one
 * that keeps time, and the Jest run's Postgres.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_SECRETS, workerTestEnv } from '@staging/config/test-env';
import { startProviderSimulator } from '@staging/provider-simulator/simulator';
import type { ProviderSimulator } from '@staging/provider-simulator/simulator';
import { runDoctor } from './doctor';
import type { DoctorReport } from './doctor';
import { checkDatabaseClock } from './doctor-clock';

const sims: ProviderSimulator[] = [];
let stopStub: () => Promise<void>;
let stubOrigin: string;

beforeAll(async () => {
  // The webhook route check needs an origin; this one answers 500, which is not under test here.
  const server = createServer((_req, res) => res.writeHead(500).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stubOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stopStub = () => new Promise<void>((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  for (const sim of sims) await sim.stop();
  await stopStub();
});

async function doctorAgainst(clockOffsetMs: number): Promise<DoctorReport> {
  const sim = await startProviderSimulator({
    token: TEST_SECRETS.PROVIDER_API_TOKEN,
    webhookSigningSecret: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
    clockOffsetMs,
  });
  sims.push(sim);
  const env = workerTestEnv({
    DATABASE_URL: process.env.DATABASE_URL,
    VALKEY_URL: process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_SUFFIX: `${process.env.QUEUE_SUFFIX ?? ''}-clock`,
    PROVIDER_API_BASE_URL: sim.url,
    PROVIDER_API_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN,
    PROVIDER_WEBHOOK_BASE_URL: stubOrigin,
    ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
    AI_STAGING_ASPECT_RATIO: '3:2',
  });
  return runDoctor({ roles: [{ role: 'worker', env, source: 'test worker env' }] });
}

const clockFindings = (report: DoctorReport) => report.findings.filter((f) => f.check === 'clock skew');

describe('doctor clock skew', () => {
  it('warns of a provider clock 10 minutes behind, from the Date header of the model GET', async () => {
    const [provider] = clockFindings(await doctorAgainst(-10 * 60_000)).filter((f) => f.scope === 'worker');
    expect(provider).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^the provider's clock is (599|600)\.\d s behind/) });
  });

  it('passes a provider and a database that keep time', async () => {
    const findings = clockFindings(await doctorAgainst(0));
    expect(findings.map((f) => [f.scope, f.status])).toEqual([
      ['shared', 'pass'],
      ['worker', 'pass'],
    ]);
  });

  it('warns, without failing the run, when the database cannot be reached', async () => {
    const finding = await checkDatabaseClock('postgresql://nobody@127.0.0.1:1/none');
    expect(finding).toMatchObject({ scope: 'shared', check: 'clock skew', status: 'warn', detail: expect.stringContaining('not measured') });
  });
});
