import { safeNextPath } from './safe-next-path';

describe('safeNextPath', () => {
  it('keeps same-site absolute paths with their query', () => {
    expect(safeNextPath('/properties/abc?tab=jobs')).toBe('/properties/abc?tab=jobs');
  });

  it.each(['//evil.test', '/\\evil.test', 'https://evil.test', 'properties', '/x\r\nSet-Cookie: a=b', '/sign-in?next=/x', '', undefined, '/a/..//evil.test', '/./sign-in', '/%2e%2e//evil.test'])(
    'refuses %j',
    (value) => {
      expect(safeNextPath(value)).toBe('/properties');
    },
  );

  it('percent-encodes what a header cannot carry, so the redirect can always be written', () => {
    expect(safeNextPath('/日')).toBe('/%E6%97%A5');
    expect(safeNextPath('/properties/x?q=añ o#é')).toBe('/properties/x?q=a%C3%B1%20o#%C3%A9');
    expect(safeNextPath('/\uD800')).toBe('/%EF%BF%BD');
    for (const value of ['/日', '/a b', '/\u00a0', '/x?y=\u202e', '/%E6%97%A5']) {
      expect(() => new Headers({ location: safeNextPath(value) })).not.toThrow();
    }
  });
});
