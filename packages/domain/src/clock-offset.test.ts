import {
  BASE_CLOCK_ALLOWANCE_MS,
  MAX_FOLLOWED_OFFSET_MS,
  offsetFromDateHeader,
  offsetFromTimestamp,
  recoveryAllowanceMs,
  webhookTimestampWindow,
} from './clock-offset';

const SENT = Date.parse('2026-12-05T12:00:00.000Z');

describe('offsetFromDateHeader', () => {
  it('puts their clock anywhere in the named second, at any instant of the round trip', () => {
    // Their clock 10 minutes behind; the answer took 200 ms.
    const offset = offsetFromDateHeader('Sat, 05 Dec 2026 11:50:00 GMT', SENT, SENT + 200);
    expect(offset).not.toBeNull();
    const low = offset!.offsetMs - offset!.uncertaintyMs;
    const high = offset!.offsetMs + offset!.uncertaintyMs;
    // Read at our 12:00:00.000 as 11:50:00.999, or at our 12:00:00.200 as 11:50:00.000.
    expect(low).toBeLessThanOrEqual(-600_200);
    expect(high).toBeGreaterThanOrEqual(-599_001);
    expect(offset!.uncertaintyMs).toBeLessThanOrEqual(600);
  });

  it('is null without a readable header', () => {
    expect(offsetFromDateHeader(null, SENT, SENT)).toBeNull();
    expect(offsetFromDateHeader('yesterday', SENT, SENT)).toBeNull();
  });
});

describe('offsetFromTimestamp', () => {
  it('is as tight as the round trip', () => {
    const offset = offsetFromTimestamp('2026-12-05T12:10:00.050Z', SENT, SENT + 100);
    expect(offset).toEqual({ offsetMs: 600_001, uncertaintyMs: 51 });
  });
});

describe('recoveryAllowanceMs', () => {
  it('is 5 minutes without a measurement and widens by the worst measured offset either way', () => {
    expect(recoveryAllowanceMs(null)).toBe(BASE_CLOCK_ALLOWANCE_MS);
    expect(recoveryAllowanceMs({ offsetMs: -600_000, uncertaintyMs: 700 })).toBe(BASE_CLOCK_ALLOWANCE_MS + 600_700);
    expect(recoveryAllowanceMs({ offsetMs: 600_000, uncertaintyMs: 700 })).toBe(BASE_CLOCK_ALLOWANCE_MS + 600_700);
    expect(recoveryAllowanceMs({ offsetMs: 0, uncertaintyMs: 0 })).toBe(BASE_CLOCK_ALLOWANCE_MS);
  });
});

describe('webhookTimestampWindow', () => {
  it('follows a measured offset with the uncertainty and the timestamp second added', () => {
    expect(webhookTimestampWindow({ offsetMs: -600_000, uncertaintyMs: 700 })).toEqual({
      offsetMs: -600_000,
      toleranceMs: BASE_CLOCK_ALLOWANCE_MS + 1_700,
    });
  });

  it('follows nothing without a measurement or past an hour', () => {
    expect(webhookTimestampWindow(null)).toBeNull();
    expect(webhookTimestampWindow({ offsetMs: MAX_FOLLOWED_OFFSET_MS, uncertaintyMs: 1 })).toBeNull();
    expect(webhookTimestampWindow({ offsetMs: -MAX_FOLLOWED_OFFSET_MS + 1_000, uncertaintyMs: 1_000 })).not.toBeNull();
  });
});
