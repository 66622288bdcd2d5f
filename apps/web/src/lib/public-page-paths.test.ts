import { decodeSearchQuery, encodeSearchQuery, internalPathOf, isInternalPublicPath, publicPageOf, visitorPathOf } from './public-page-paths';

const pageOf = (url: string) => publicPageOf(new URL(url, 'http://app.example.test'));

describe('public page paths', () => {
  it('names the listing and search pages a visitor asks for, and nothing else', () => {
    expect(pageOf('/listings/abc')).toEqual({ kind: 'listing', propertyId: 'abc' });
    expect(pageOf('/search')).toEqual({ kind: 'search', q: '' });
    expect(pageOf('/search?q=Lisboa%20centro&page=2')).toEqual({ kind: 'search', q: 'Lisboa centro' });
    expect(pageOf(`/search?q=${'x'.repeat(300)}`)).toEqual({ kind: 'search', q: 'x'.repeat(200) });
    for (const other of ['/listings', '/listings/abc/photos', '/properties/abc', '/searches', '/', '/en/listings/abc']) expect(pageOf(other)).toBeNull();
  });

  it('rewrites each to a route that names the language, the query in one path segment', () => {
    expect(internalPathOf({ kind: 'listing', propertyId: 'abc' }, 'es')).toBe('/es/listings/abc');
    expect(internalPathOf({ kind: 'search', q: '' }, 'en')).toBe('/en/search');
    const path = internalPathOf({ kind: 'search', q: 'a/b ?#%é' }, 'en');
    expect(path).toMatch(/^\/en\/search\/[A-Za-z0-9_-]+$/);
    expect(isInternalPublicPath(path)).toBe(true);
    expect(isInternalPublicPath('/es/listings/abc')).toBe(true);
    expect(isInternalPublicPath('/fr/listings/abc')).toBe(false);
    expect(isInternalPublicPath('/listings/abc')).toBe(false);
  });

  it('reads back exactly the query it encoded, and refuses a segment it did not make', () => {
    for (const q of ['', 'casa', 'a/b ?#%é', 'São Paulo 😀', ' two  spaces ']) expect(decodeSearchQuery(encodeSearchQuery(q))).toBe(q);
    expect(decodeSearchQuery('not base64!')).toBeNull();
    expect(decodeSearchQuery('_w')).toBeNull(); // not UTF-8
    expect(decodeSearchQuery(`${encodeSearchQuery('casa')}=`)).toBeNull();
  });

  it('gives the language switcher the visitor URL of the route it is on', () => {
    expect(visitorPathOf(['listings', 'abc'])).toBe('/listings/abc');
    expect(visitorPathOf(['search'])).toBe('/search');
    expect(visitorPathOf(['search', encodeSearchQuery('São Paulo & co')])).toBe('/search?q=S%C3%A3o+Paulo+%26+co');
    expect(visitorPathOf(['search', 'garbage!'])).toBe('/search');
  });
});
