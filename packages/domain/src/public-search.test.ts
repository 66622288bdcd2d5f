import { describe, expect, it } from '@jest/globals';
import { searchWordsOf } from './public-search';

describe('searchWordsOf', () => {
  it('splits on spaces and punctuation, keeping letters, accents and digits', () => {
    expect(searchWordsOf('  Sea-view  Óbidos, 3 rooms ')).toEqual(['Sea', 'view', 'Óbidos', '3', 'rooms']);
  });

  it('leaves tsquery operators and quotes nothing but separators', () => {
    expect(searchWordsOf(`&|!:*()'\\ lis&bon <-> "x"`)).toEqual(['lis', 'bon', 'x']);
    expect(searchWordsOf(`&|!:*()'\\`)).toEqual([]);
  });

  it('keeps a decomposed accent with its letter, and each word once', () => {
    expect(searchWordsOf('o\u0301bidos óbidos')).toEqual(['óbidos']);
  });
});
