import { clockFinding, CLOCK_SKEW_WARN_MS, providerClockFinding } from './doctor-clock';

describe('clockFinding', () => {
  it('passes within a minute and says which way and how sure', () => {
    const finding = clockFinding('shared', "the database's", 'select now()', { offsetMs: -1_500, uncertaintyMs: 2 });
    expect(finding).toEqual({
      scope: 'shared',
      check: 'clock skew',
      status: 'pass',
      detail: "the database's clock is 1.5 s behind this machine's (±0.0 s, select now())",
    });
  });

  it('warns only when the offset is surely over a minute', () => {
    const over = { offsetMs: CLOCK_SKEW_WARN_MS + 2_000, uncertaintyMs: 600 };
    expect(clockFinding('worker', "the provider's", 'Date header', over)).toMatchObject({ status: 'warn', detail: expect.stringContaining('ahead of') });
    // Within the measurement's uncertainty of the threshold: not surely over.
    expect(clockFinding('worker', "the provider's", 'Date header', { offsetMs: CLOCK_SKEW_WARN_MS + 500, uncertaintyMs: 600 }).status).toBe('pass');
  });
});

describe('providerClockFinding', () => {
  it('reads the Date header against the round trip', () => {
    const sentAtMs = Date.parse('2026-12-05T12:00:00.000Z');
    const finding = providerClockFinding({ date: 'Sat, 05 Dec 2026 11:50:00 GMT', sentAtMs, receivedAtMs: sentAtMs + 100 });
    expect(finding).toMatchObject({ scope: 'worker', status: 'warn', detail: expect.stringMatching(/clock is 599\.\d s behind this machine's \(±0\.6 s/) });
  });

  it('warns that nothing was measured without an answer or a readable header', () => {
    expect(providerClockFinding(undefined)).toMatchObject({ status: 'warn', detail: expect.stringContaining('not measured') });
    expect(providerClockFinding({ date: 'soon', sentAtMs: 0, receivedAtMs: 1 }).status).toBe('warn');
  });
});
