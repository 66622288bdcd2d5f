import { dailyPurchaseAlertThreshold, decideDailyPurchase, purchaseDayOf } from './daily-purchase-cap';

describe('purchaseDayOf', () => {
  it('is the UTC day, midnight included, the next midnight excluded', () => {
    expect(purchaseDayOf(new Date('2026-11-27T00:00:00.000Z'))).toEqual({
      start: new Date('2026-11-27T00:00:00.000Z'),
      end: new Date('2026-11-28T00:00:00.000Z'),
    });
    expect(purchaseDayOf(new Date('2026-11-27T23:59:59.999Z')).start).toEqual(
      new Date('2026-11-27T00:00:00.000Z'),
    );
  });

  it('ignores the local time zone of the instant', () => {
    // 23:30 in UTC-5 on the 26th is already the 27th in UTC.
    expect(purchaseDayOf(new Date('2026-11-26T23:30:00-05:00')).start).toEqual(
      new Date('2026-11-27T00:00:00.000Z'),
    );
  });
});

describe('decideDailyPurchase', () => {
  it('allows everything without a cap, and never alerts', () => {
    expect(decideDailyPurchase({ cap: null, others: 1_000_000, selfCounted: false })).toEqual({
      kind: 'allowed',
      alert: false,
    });
  });

  it('allows the last purchase under the cap and refuses the one after', () => {
    expect(decideDailyPurchase({ cap: 3, others: 2, selfCounted: false }).kind).toBe('allowed');
    expect(decideDailyPurchase({ cap: 3, others: 3, selfCounted: false })).toEqual({ kind: 'capped' });
    expect(decideDailyPurchase({ cap: 3, others: 7, selfCounted: true })).toEqual({ kind: 'capped' });
  });

  it('alerts on the purchase that reaches 80 % of the cap, and on no other', () => {
    const alerts = Array.from({ length: 10 }, (_, others) =>
      decideDailyPurchase({ cap: 10, others, selfCounted: false }),
    )
      .map((decision, others) => (decision.kind === 'allowed' && decision.alert ? others + 1 : null))
      .filter((n) => n !== null);
    expect(alerts).toEqual([8]);
  });

  it('does not alert again when an attempt already counted in the day creates again', () => {
    expect(decideDailyPurchase({ cap: 10, others: 7, selfCounted: false })).toEqual({
      kind: 'allowed',
      alert: true,
    });
    expect(decideDailyPurchase({ cap: 10, others: 7, selfCounted: true })).toEqual({
      kind: 'allowed',
      alert: false,
    });
  });

  it('puts the threshold at 80 % rounded up, at least one purchase', () => {
    expect([1, 2, 5, 10, 11, 1000].map(dailyPurchaseAlertThreshold)).toEqual([1, 2, 4, 8, 9, 800]);
  });
});
