import { safeNextPath } from './safe-next-path';

describe('safeNextPath', () => {
  it('keeps same-site absolute paths with their query', () => {
    expect(safeNextPath('/properties/abc?tab=jobs')).toBe('/properties/abc?tab=jobs');
  });

  it.each(['//evil.test', '/\\evil.test', 'https://evil.test', 'properties', '/x\r\nSet-Cookie: a=b', '/sign-in?next=/x', '', undefined])(
    'refuses %j',
    (value) => {
      expect(safeNextPath(value)).toBe('/properties');
    },
  );
});
