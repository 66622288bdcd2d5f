import { localeOfRequest, parseAcceptLanguage, pickLocale, serializeLocaleCookie } from './locale';

describe('locale', () => {
  it('orders Accept-Language tags by quality, ties in header order', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, es;q=0.95, *;q=0.5, de;q=0')).toEqual(['fr-CH', 'es', 'fr']);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });

  it('picks the first supported language and falls back to English', () => {
    expect(pickLocale(['fr-FR', 'es-MX', 'en'])).toBe('es');
    expect(pickLocale(['ES'])).toBe('es');
    expect(pickLocale(['de'])).toBe('en');
    expect(pickLocale([])).toBe('en');
  });

  it('prefers the choice made in this browser, then the account, then Accept-Language', () => {
    expect(localeOfRequest({ chosen: 'es', account: 'en', acceptLanguage: 'en-US,en' })).toBe('es');
    expect(localeOfRequest({ chosen: 'en', account: 'es', acceptLanguage: 'es-ES' })).toBe('en');
    expect(localeOfRequest({ chosen: undefined, account: 'es', acceptLanguage: 'en-US' })).toBe('es');
    expect(localeOfRequest({ chosen: undefined, account: null, acceptLanguage: 'es-ES' })).toBe('es');
    expect(localeOfRequest({ chosen: undefined, account: null, acceptLanguage: null })).toBe('en');
  });

  it('ignores a cookie that names no shipped language', () => {
    expect(localeOfRequest({ chosen: 'fr', account: null, acceptLanguage: 'es-ES,en;q=0.5' })).toBe('es');
    expect(localeOfRequest({ chosen: '', account: 'es', acceptLanguage: 'en' })).toBe('es');
  });

  it('writes the switcher cookie for a year', () => {
    expect(serializeLocaleCookie('es', { secure: true })).toBe('locale=es; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure');
    expect(serializeLocaleCookie('en', { secure: false })).toBe('locale=en; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax');
  });
});
