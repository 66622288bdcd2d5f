import { describe, expect, test } from '@jest/globals';
import {
  parseCookies,
  serializeClearedSessionCookie,
  serializeSessionCookie,
  SESSION_COOKIE_NAME,
} from './cookies';

describe('parseCookies', () => {
  test('reads name=value pairs, first occurrence wins', () => {
    const cookies = parseCookies('theme=dark; sid=abc123; sid=later');
    expect(cookies.get('theme')).toBe('dark');
    expect(cookies.get(SESSION_COOKIE_NAME)).toBe('abc123');
  });

  test('tolerates empty, missing and malformed input', () => {
    expect(parseCookies(undefined).size).toBe(0);
    expect(parseCookies(null).size).toBe(0);
    expect(parseCookies('').size).toBe(0);
    expect(parseCookies('novalue; =x; a=%E0%A4%A; b="quoted"').get('a')).toBe('%E0%A4%A');
    expect(parseCookies('b="quoted"; c=%20space').get('b')).toBe('quoted');
    expect(parseCookies('c=%20space').get('c')).toBe(' space');
  });
});

describe('session cookie', () => {
  const expiresAt = new Date('2030-01-02T03:04:05Z');

  test('HttpOnly, SameSite=Lax, Path=/ with the expiry; Secure only when asked', () => {
    const secure = serializeSessionCookie('tok', { expiresAt, secure: true });
    expect(secure.split('; ')).toEqual([
      'sid=tok',
      'Path=/',
      'Expires=Wed, 02 Jan 2030 03:04:05 GMT',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
    expect(serializeSessionCookie('tok', { expiresAt, secure: false })).not.toContain('Secure');
  });

  test('the serialized token parses back unchanged', () => {
    const token = 'a-b_c~d+e/f=';
    const header = serializeSessionCookie(token, { expiresAt, secure: false }).split(';')[0];
    expect(parseCookies(header).get(SESSION_COOKIE_NAME)).toBe(token);
  });

  test('the cleared cookie expires immediately with the same attributes', () => {
    const cleared = serializeClearedSessionCookie({ secure: true });
    expect(cleared).toMatch(/^sid=; /);
    expect(cleared).toContain('Max-Age=0');
    expect(cleared).toContain('HttpOnly');
    expect(cleared).toContain('SameSite=Lax');
    expect(cleared).toContain('Secure');
    expect(serializeClearedSessionCookie({ secure: false })).not.toContain('Secure');
  });
});
