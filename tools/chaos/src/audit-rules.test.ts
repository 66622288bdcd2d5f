import {
  attemptIdOfCallback,
  createdWithin,
  evaluateInvariants,
  INVARIANT_NAMES,
  orphansLeftRunning,
  orphanObjects,
  overDailyCap,
  purchaseFindings,
  startsOutOfFairOrder,
  stuckJobs,
  unconfirmedYetDecided,
} from './audit-rules';
import type { AttemptFact, AuditFacts, JobFact, Purchase } from './audit-rules';

function attempt(id: string, aiJobId: string, attemptNumber: number, extra: Partial<AttemptFact> = {}): AttemptFact {
  return { id, aiJobId, attemptNumber, status: 'SUCCEEDED', errorCode: null, providerPredictionId: `p-${id}`, ...extra };
}

function job(id: string, status: JobFact['status'], party = 'agent', createdAtMs = 0, rejoinedAtMs: number[] = []): JobFact {
  return { id, status, party, createdAtMs, rejoinedAtMs };
}

function bought(attemptId: string | null, predictionId = `p-${attemptId}`, createdAtMs = 0, status = 'succeeded'): Purchase {
  return { predictionId, attemptId, createdAtMs, status };
}

describe('purchaseFindings', () => {
  it('accepts one purchase per attempt and attempt 2 after a retryable failure of attempt 1', () => {
    const attempts = [attempt('a1', 'j', 1, { status: 'FAILED', errorCode: 'PROVIDER_FAILED' }), attempt('a2', 'j', 2)];
    const findings = purchaseFindings([bought('a1'), bought('a2')], attempts);
    expect(findings).toEqual({
      maxPerJob: 2,
      jobsOverLimit: [],
      attemptsBoughtTwice: [],
      secondWithoutRetryableFirst: [],
      unrecorded: [],
      unattributed: [],
    });
  });

  it('finds an attempt bought twice and a job over two purchases', () => {
    const attempts = [attempt('a1', 'j', 1, { status: 'FAILED', errorCode: 'PROVIDER_FAILED' }), attempt('a2', 'j', 2)];
    const findings = purchaseFindings([bought('a1'), bought('a1', 'p-again'), bought('a2')], attempts);
    expect(findings.maxPerJob).toBe(3);
    expect(findings.jobsOverLimit).toEqual(['j']);
    expect(findings.attemptsBoughtTwice).toEqual(['a1']);
    expect(findings.unrecorded).toEqual(['p-again']);
  });

  it('flags attempt 2 bought after a terminal failure, or while attempt 1 did not fail', () => {
    const terminal = [attempt('a1', 'j', 1, { status: 'FAILED', errorCode: 'PROVIDER_FAILED_PERMANENT' }), attempt('a2', 'j', 2)];
    expect(purchaseFindings([bought('a2')], terminal).secondWithoutRetryableFirst).toEqual(['j']);
    const succeeded = [attempt('b1', 'k', 1), attempt('b2', 'k', 2)];
    expect(purchaseFindings([bought('b2')], succeeded).secondWithoutRetryableFirst).toEqual(['k']);
  });

  it('counts predictions without a known attempt as unattributed and unrecorded', () => {
    const findings = purchaseFindings([bought(null, 'p-x'), bought('nope', 'p-y')], [attempt('a1', 'j', 1, { providerPredictionId: null })]);
    expect(findings.unattributed).toEqual(['p-x', 'p-y']);
    expect(findings.unrecorded).toEqual(['p-x', 'p-y']);
    expect(findings.maxPerJob).toBe(0);
  });
});

describe('the other rules', () => {
  it('reads the attempt id from the callback path only', () => {
    expect(attemptIdOfCallback('http://127.0.0.1:9/api/webhooks/provider/staging/att-1')).toBe('att-1');
    expect(attemptIdOfCallback('http://127.0.0.1:9/elsewhere/att-1')).toBeNull();
    expect(attemptIdOfCallback(null)).toBeNull();
  });

  it('finds purchases inside the kill-switch intervals, ends included', () => {
    const purchases = [bought('a', 'p1', 999), bought('b', 'p2', 1_000), bought('c', 'p3', 2_000), bought('d', 'p4', 2_001)];
    expect(createdWithin(purchases, [{ fromMs: 1_000, toMs: 2_000 }])).toEqual(['p2', 'p3']);
  });

  it('finds stored objects neither referenced nor queued', () => {
    expect(orphanObjects(['a', 'b', 'c'], new Set(['a']), new Set(['b']))).toEqual(['c']);
  });

  it('finds the purchases beyond the daily cap in each UTC day, by creation time at the provider', () => {
    const at = (iso: string) => Date.parse(iso);
    const purchases = [
      bought('d1-late', 'p-d1-late', at('2026-11-27T23:59:59.999Z')),
      bought('d1-early', 'p-d1-early', at('2026-11-27T00:00:00.000Z')),
      bought('d2-a', 'p-d2-a', at('2026-11-28T00:00:00.000Z')),
      bought('d2-b', 'p-d2-b', at('2026-11-28T08:00:00.000Z')),
      bought('d2-c', 'p-d2-c', at('2026-11-28T09:00:00.000Z')),
    ];
    expect(overDailyCap(purchases, 2)).toEqual(['p-d2-c']);
    expect(overDailyCap(purchases, 1)).toEqual(['p-d1-late', 'p-d2-b', 'p-d2-c']);
    expect(overDailyCap(purchases, 3)).toEqual([]);
    expect(overDailyCap(purchases, null)).toEqual([]);
  });

  it('finds nonterminal jobs', () => {
    expect(stuckJobs([job('x', 'SUCCESS'), job('y', 'RETRYING'), job('z', 'CANCELED')])).toEqual(['y']);
  });
});

describe('startsOutOfFairOrder', () => {
  // A submits four at 0, B one at 1 s; one start every 10 s.
  const jobs = [...['a1', 'a2', 'a3', 'a4'].map((id) => job(id, 'SUCCESS', 'A', 0)), job('b1', 'SUCCESS', 'B', 1_000)];
  const attempts = jobs.map((j) => attempt(`at-${j.id}`, j.id, 1));
  const startsAt = (order: string[]) => order.map((id, i) => ({ attemptId: `at-${id}`, atMs: i * 10_000 }));

  it('accepts the fair order and what fair queueing allows: B next, or after one or two more of A', () => {
    expect(startsOutOfFairOrder(startsAt(['a1', 'b1', 'a2', 'a3', 'a4']), attempts, jobs, 10_000)).toEqual([]);
    expect(startsOutOfFairOrder(startsAt(['a1', 'a2', 'b1', 'a3', 'a4']), attempts, jobs, 10_000)).toEqual([]);
    expect(startsOutOfFairOrder(startsAt(['a1', 'a2', 'a3', 'a4', 'b1']), attempts, jobs, 10_000)).toEqual([]);
  });

  it('counts every create call as a start, a refused one too: the slot was spent on it', () => {
    // B's b0 was refused at 12 s and created at 25 s; b1 waited from 11 s while A started four.
    const withB0 = [...jobs, job('b0', 'SUCCESS', 'B', 0), job('a5', 'SUCCESS', 'A', 0)];
    const calls = [
      { attemptId: 'at-a1', atMs: 0 },
      { attemptId: 'at-b0', atMs: 12_000 },
      { attemptId: 'at-a2', atMs: 20_000 },
      { attemptId: 'at-b0', atMs: 25_000 },
      { attemptId: 'at-a3', atMs: 30_000 },
      { attemptId: 'at-a4', atMs: 35_000 },
      { attemptId: 'at-a5', atMs: 37_000 },
      { attemptId: 'at-b1', atMs: 40_000 },
    ];
    const withB0Attempts = [...attempts, attempt('at-b0', 'b0', 1), attempt('at-a5', 'a5', 1)];
    expect(startsOutOfFairOrder(calls, withB0Attempts, withB0, 10_000)).toEqual([]);
    expect(startsOutOfFairOrder(calls.filter((call) => call.atMs !== 12_000), withB0Attempts, withB0, 10_000)).toEqual(['b1']);
  });

  it("names a job that waited while another agent's batch took three starts beyond its own, after its interval to join", () => {
    // From 11 s (submitted at 1 s, plus one interval): a3, a4 and a5 went before b1.
    const withA5 = [...jobs, job('a5', 'SUCCESS', 'A', 0)];
    expect(startsOutOfFairOrder(startsAt(['a1', 'a2', 'a3', 'a4', 'a5', 'b1']), [...attempts, attempt('at-a5', 'a5', 1)], withA5, 10_000)).toEqual(['b1']);
  });

  it('counts the wait from when the job last joined the line: a repaired queue message or a slot lost with its run', () => {
    // b1 joined again at 35 s (a repair after FLUSHALL, or a create again after recovery): from
    // 45 s only a5 went before it. Had it rejoined after its start, nothing would change.
    const withA5 = [...jobs.filter((j) => j.id !== 'b1'), job('a5', 'SUCCESS', 'A', 0), job('b1', 'SUCCESS', 'B', 1_000, [35_000, 60_000])];
    const order = startsAt(['a1', 'a2', 'a3', 'a4', 'a5', 'b1']);
    const withA5Attempts = [...attempts, attempt('at-a5', 'a5', 1)];
    expect(startsOutOfFairOrder(order, withA5Attempts, withA5, 10_000)).toEqual([]);
    const lateRejoin = withA5.map((j) => (j.id === 'b1' ? { ...j, rejoinedAtMs: [60_000] } : j));
    expect(startsOutOfFairOrder(order, withA5Attempts, lateRejoin, 10_000)).toEqual(['b1']);
  });
});

describe('unconfirmedYetDecided', () => {
  it('names a job failed PURCHASE_UNCONFIRMED whose attempt the simulator shows bought once or not at all', () => {
    const unconfirmed = (id: string, job: string) =>
      attempt(id, job, 1, { status: 'FAILED', errorCode: 'PURCHASE_UNCONFIRMED', providerPredictionId: null });
    const attempts = [unconfirmed('a1', 'j1'), unconfirmed('a2', 'j2'), attempt('a3', 'j3', 1)];
    expect(unconfirmedYetDecided(attempts, [bought('a1'), bought('a3')])).toEqual(['j1', 'j2']);
  });
});

describe('orphansLeftRunning', () => {
  it('counts running purchases no attempt holds, not held or finished ones', () => {
    const attempts = [attempt('a1', 'j1', 1), attempt('a2', 'j2', 1, { status: 'FAILED', errorCode: 'PURCHASE_UNCONFIRMED', providerPredictionId: null })];
    const purchases = [
      bought('a1', 'p-a1', 0, 'processing'),
      bought('a1', 'p-rebought', 0, 'starting'),
      bought('a2', 'p-unclaimed', 0, 'processing'),
      bought('a2', 'p-spent', 0, 'canceled'),
      bought(null, 'p-aborted', 0, 'aborted'),
    ];
    expect(orphansLeftRunning(purchases, attempts)).toEqual(['p-rebought', 'p-unclaimed']);
  });
});

describe('evaluateInvariants', () => {
  const clean: AuditFacts = {
    purchases: [bought('a1', 'p-a1', 0)],
    createCalls: [{ attemptId: 'a1', atMs: 0 }],
    attempts: [attempt('a1', 'j', 1)],
    jobs: [job('j', 'SUCCESS')],
    storedKeys: ['k'],
    referencedKeys: new Set(['k']),
    queuedKeys: new Set(),
    killSwitchOff: [{ fromMs: 10, toMs: 20 }],
    rateLimitPerMinute: 1,
    dailyPurchaseCap: null,
  };

  it('reports every invariant in order, all at target for a clean run', () => {
    const results = evaluateInvariants(clean);
    expect(results.map((r) => r.name)).toEqual([...INVARIANT_NAMES]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results[6]!.figure).toBe('1.00 (peak 1 in 60 s, limit 1)');
    expect(results[8]).toMatchObject({ figure: '0', target: '0; no cap set' });
  });

  it('fails the orphan line with a running purchase no attempt holds', () => {
    const results = evaluateInvariants({ ...clean, purchases: [...clean.purchases, bought('a1', 'p-orphan', 5, 'processing')] });
    expect(results[11]).toMatchObject({ name: 'orphan predictions left running after the drain', figure: '1', target: '0', ok: false, examples: ['p-orphan'] });
  });

  it('fails the daily cap line with the purchases beyond the cap', () => {
    const second = bought('a1', 'p-second', 70_000);
    const results = evaluateInvariants({ ...clean, dailyPurchaseCap: 1, purchases: [...clean.purchases, second] });
    expect(results[8]).toMatchObject({ figure: '1', target: '0; cap 1 per UTC day', ok: false, examples: ['p-second'] });
  });

  it('fails the window and kill-switch lines when a start lands in the off interval', () => {
    const results = evaluateInvariants({ ...clean, purchases: [...clean.purchases, bought(null, 'p-off', 15)] });
    const failed = results.filter((r) => !r.ok).map((r) => r.name);
    expect(failed).toEqual([
      'purchases not recorded in ai_provider_attempts',
      'sliding-window paid-start peak / limit',
      'predictions created while the kill switch was off',
    ]);
    expect(results[7]!.examples).toEqual(['p-off']);
  });
});
