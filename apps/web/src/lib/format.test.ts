import { formatBytes, formatElapsed, formatPriceAdjustment, spendEstimate } from './format';

describe('format', () => {
  it('formats elapsed time for the jobs panel', () => {
    expect(formatElapsed(4_900)).toBe('4\u00a0s');
    expect(formatElapsed(125_000)).toBe('2\u00a0min 05\u00a0s');
    expect(formatElapsed(3_780_000)).toBe('1\u00a0h 03\u00a0min');
    expect(formatElapsed(-5)).toBe('0\u00a0s');
  });

  it('writes file sizes with the digits and units of the UI language', () => {
    const sixteenMegabytes = 16 * 1024 * 1024;
    expect(formatBytes(sixteenMegabytes, 'en')).toBe('16.0 MB');
    expect(formatBytes(sixteenMegabytes, 'es')).toBe('16,0 MB');
    expect(formatBytes(1536 * 1024, 'es')).toBe('1,5 MB');
    // Rounded up, like the upload limit's message: just over 15 MB is not "15.0 MB".
    expect(formatBytes(15 * 1024 * 1024 + 1, 'en')).toBe('15.1 MB');
    expect(formatBytes(17_438_514, 'es')).toBe('16,7 MB');
    expect(formatBytes(12 * 1024, 'en')).toBe('12 kB');
    expect(formatBytes(512, 'es')).toBe('512 B');
  });

  it('signs price adjustments', () => {
    expect(formatPriceAdjustment(1250.5, 'en')).toBe('+1,250.50');
    expect(formatPriceAdjustment(-300, 'en')).toBe('−300.00');
    expect(formatPriceAdjustment(0, 'en')).toBe('0.00');
    expect(formatPriceAdjustment(-300, 'es')).toBe('−300,00');
    expect(formatPriceAdjustment(null, 'en')).toBe('—');
  });

  it('gives a spend amount only when some attempt had a price, never a $0.00 made of unpriced attempts', () => {
    expect(spendEstimate({ estimateMicrousd: 0, attempts: 6, attemptsWithoutEstimate: 6 })).toEqual({ priced: false });
    expect(spendEstimate({ estimateMicrousd: 1_200_000, attempts: 7, attemptsWithoutEstimate: 6 })).toEqual({ priced: true, usd: 1.2, unpriced: 6 });
    expect(spendEstimate({ estimateMicrousd: 84_000, attempts: 2, attemptsWithoutEstimate: 0 })).toEqual({ priced: true, usd: 0.084, unpriced: 0 });
    // A price configured as zero is a real figure, not a missing one.
    expect(spendEstimate({ estimateMicrousd: 0, attempts: 1, attemptsWithoutEstimate: 0 })).toEqual({ priced: true, usd: 0, unpriced: 0 });
  });
});
