import { searchWordsOf } from './public-search';

describe('searchWordsOf', () => {
  it('splits at anything but letters and digits, so no character reaches the database as an operator', () => {
    expect(searchWordsOf(`  Sunny  & loft|!:*()'\\%_ 3-bed `)).toEqual(['Sunny', 'loft', '3', 'bed']);
    expect(searchWordsOf('')).toEqual([]);
    expect(searchWordsOf('%%% ***')).toEqual([]);
  });

  it('keeps letters of every script, accents included (the database folds them), after NFKC', () => {
    expect(searchWordsOf('Óbidos São-Paulo ＬＩＳＢＯＮ')).toEqual(['Óbidos', 'São', 'Paulo', 'LISBON']);
  });
});
