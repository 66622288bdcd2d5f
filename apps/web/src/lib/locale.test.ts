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

  it('prefers the switcher cookie to Accept-Language and ignores an unknown cookie', () => {
    expect(localeOfRequest('es', 'en-US,en')).toBe('es');
    expect(localeOfRequest('en', 'es-ES')).toBe('en');
    expect(localeOfRequest('fr', 'es-ES,en;q=0.5')).toBe('es');
    expect(localeOfRequest(undefined, null)).toBe('en');
  });

  it('writes the switcher cookie for a year, and clears it with Max-Age=0', () => {
    expect(serializeLocaleCookie('es', { secure: true })).toBe('locale=es; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure');
    expect(serializeLocaleCookie(null, { secure: false })).toBe('locale=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
