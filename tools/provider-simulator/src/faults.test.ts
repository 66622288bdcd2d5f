import { describe, expect, it } from '@jest/globals';
import { FAULT_NAMES, ZFaultList } from './faults';

describe('ZFaultList', () => {
  it('accepts a plain list of names and normalises them to objects', () => {
    expect(ZFaultList.parse(['fail', 'slow'])).toEqual([{ name: 'fail' }, { name: 'slow' }]);
  });

  it('accepts { faults } and objects with options', () => {
    expect(ZFaultList.parse({ faults: [{ name: 'slow', delayMs: 2_000 }, { name: 'http_429', retryAfterSeconds: 5 }] })).toEqual([
      { name: 'slow', delayMs: 2_000 },
      { name: 'http_429', retryAfterSeconds: 5 },
    ]);
  });

  it('knows every documented fault', () => {
    expect(ZFaultList.parse([...FAULT_NAMES])).toHaveLength(25);
  });

  it.each([
    ['an unknown name', ['explode']],
    ['an unknown option', [{ name: 'slow', delay: 5 }]],
    ['a negative delay', [{ name: 'slow', delayMs: -1 }]],
    ['a bare object', { name: 'fail' }],
  ])('rejects %s', (_label, body) => {
    expect(ZFaultList.safeParse(body).success).toBe(false);
  });
});
