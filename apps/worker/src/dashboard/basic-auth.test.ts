import { isSameSecret } from './basic-auth';

describe('isSameSecret', () => {
  it('is true only for the same bytes, string or buffer', () => {
    expect(isSameSecret('ops:secret', 'ops:secret')).toBe(true);
    expect(isSameSecret(Buffer.from('ops:secret'), 'ops:secret')).toBe(true);
    expect(isSameSecret('ops:secreT', 'ops:secret')).toBe(false);
    expect(isSameSecret('', 'ops:secret')).toBe(false);
  });

  // A length check in front of timingSafeEqual answers a wrong length sooner than a wrong byte;
  // timingSafeEqual alone throws on it. Both sides are digests of one fixed length instead.
  it.each([
    ['a prefix', 'ops:secre'],
    ['a longer value', 'ops:secret-and-more'],
    ['a value many times longer', 'x'.repeat(10_000)],
  ])('answers false for %s without throwing', (_name, given) => {
    expect(isSameSecret(given, 'ops:secret')).toBe(false);
  });
});
