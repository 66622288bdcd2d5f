import { formatElapsed, formatPriceAdjustment } from './format';

describe('format', () => {
  it('formats elapsed time for the jobs panel', () => {
    expect(formatElapsed(4_900)).toBe('4 s');
    expect(formatElapsed(125_000)).toBe('2 min 05 s');
    expect(formatElapsed(3_780_000)).toBe('1 h 03 min');
    expect(formatElapsed(-5)).toBe('0 s');
  });

  it('signs price adjustments', () => {
    expect(formatPriceAdjustment(1250.5, 'en')).toBe('+1,250.50');
    expect(formatPriceAdjustment(-300, 'en')).toBe('−300.00');
    expect(formatPriceAdjustment(0, 'en')).toBe('0.00');
    expect(formatPriceAdjustment(-300, 'es')).toBe('−300,00');
    expect(formatPriceAdjustment(null, 'en')).toBe('—');
  });
});
