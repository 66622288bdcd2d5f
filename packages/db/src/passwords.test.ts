import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { hashPassword, verifyPassword } from './passwords';

describe('hashPassword / verifyPassword', () => {
  it('writes scrypt$N$r$p$salt$hash with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(first).not.toBe(second);
  });

  it('accepts the right password and rejects any other', async () => {
    const stored = await hashPassword('s3cret-Pässword');
    expect(await verifyPassword('s3cret-Pässword', stored)).toBe(true);
    expect(await verifyPassword('s3cret-Password', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('round-trips arbitrary passwords', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 0, maxLength: 40 }), async (password) => {
        const stored = await hashPassword(password);
        expect(await verifyPassword(password, stored)).toBe(true);
        expect(await verifyPassword(`${password}x`, stored)).toBe(false);
      }),
      { numRuns: 8 },
    );
  });

  it.each([
    ['empty', ''],
    ['another scheme', 'bcrypt$2b$10$abc'],
    ['too few parts', 'scrypt$16384$8$1$c2FsdA=='],
    ['N not a power of two', 'scrypt$1000$8$1$c2FsdA==$aGFzaA=='],
    ['N too large', `scrypt$${2 ** 24}$8$1$c2FsdA==$aGFzaA==`],
    ['r zero', 'scrypt$16384$0$1$c2FsdA==$aGFzaA=='],
    ['non-numeric p', 'scrypt$16384$8$x$c2FsdA==$aGFzaA=='],
    ['empty salt', 'scrypt$16384$8$1$$aGFzaA=='],
  ])('rejects a malformed hash (%s) without throwing', async (_label, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });
});
