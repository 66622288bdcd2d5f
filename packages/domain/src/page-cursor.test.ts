import { expect, test } from '@jest/globals';
import { AppError } from './errors';
import { decodePageCursor, encodePageCursor } from './page-cursor';

test('a cursor reads back as the key and id it was made from, unicode and quotes included', () => {
  for (const cursor of [
    { key: '10', id: 'a' },
    { key: 'Ünit "7" ☃ 𝄞', id: '0f9c-…' },
    { key: '', id: '' },
  ]) {
    const text = encodePageCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageCursor(text)).toEqual(cursor);
  }
});

test.each(['not json', encodePageCursor({ key: 'a', id: 'b' }).slice(2), btoa('["a"]'), btoa('[1,"b"]'), btoa('\xff\xfe')])(
  'any other text is a BAD_REQUEST on cursor: %s',
  (text) => {
    let error: unknown;
    try {
      decodePageCursor(text);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: ['cursor'], code: 'INVALID' }] });
  },
);
