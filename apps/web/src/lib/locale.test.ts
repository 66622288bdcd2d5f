import { parseAcceptLanguage, pickLocale } from './locale';

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
});
