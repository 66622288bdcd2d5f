import { describe, expect, it } from '@jest/globals';
import { safeNextPath } from './safe-next-path';

describe('safeNextPath', () => {
  it('keeps same-site absolute paths with their query and fragment', () => {
    expect(safeNextPath('/properties/abc?tab=jobs')).toBe('/properties/abc?tab=jobs');
    expect(safeNextPath('/properties/%E6%97%A5#photos')).toBe('/properties/%E6%97%A5#photos');
  });

  it.each([
    '//evil.test',
    '/\\evil.test',
    'https://evil.test',
    'properties',
    '/x\r\nSet-Cookie: a=b',
    '/x\ty',
    '/sign-in?next=/x',
    '/auth/sign-out',
    '',
    undefined,
    null,
    '/a/..//evil.test',
    '/./sign-in',
    '/%2e%2e//evil.test',
    '/%FF',
    '/%E6%97',
    `/${'a'.repeat(2048)}`,
    // Each character grows nine-fold when encoded, past the bound.
    `/${'日'.repeat(300)}`,
  ])('refuses %j', (value) => {
    expect(safeNextPath(value)).toBe('/properties');
  });

  it('falls back to the page it is given', () => {
    expect(safeNextPath('//evil.test', '/search')).toBe('/search');
  });

  it('percent-encodes what a header cannot carry, so the redirect can always be written', () => {
    expect(safeNextPath('/日')).toBe('/%E6%97%A5');
    expect(safeNextPath('/properties/x?q=añ o#é')).toBe('/properties/x?q=a%C3%B1%20o#%C3%A9');
    expect(safeNextPath('/\uD800')).toBe('/%EF%BF%BD');
  });

  it('answers a header value for anything a client may send', () => {
    const hostile = ['/日', '/a b', '/\u00a0', '/x?y=\u202e', '/%E6%97%A5', '/\u0085', '/\u2028x', '/x#\u0000', '/\uFEFF', '/?\uD83D'];
    for (const value of hostile) {
      const path = safeNextPath(value);
      expect([value, /^\/[\x21-\x7e]*$/.test(path)]).toEqual([value, true]);
      expect(() => new Headers({ location: path })).not.toThrow();
    }
  });
});
