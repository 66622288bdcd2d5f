import { parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads quoted fields, escaped quotes, CRLF and LF, and skips blank lines', () => {
    const text = '\uFEFFa,b,c\r\n1,"two, with comma","say ""hi"""\n\n3,,"multi\nline"\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'two, with comma', 'say "hi"'] },
      { line: 4, fields: ['3', '', 'multi\nline'] },
    ]);
  });

  it('keeps the line a record starts on after a quoted line break', () => {
    expect(parseCsv('"x\ny",1\nz,2').map((record) => record.line)).toEqual([1, 3]);
  });

  it('returns a last record without a trailing newline and an empty trailing field', () => {
    expect(parseCsv('a,b\n1,')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', ''] },
    ]);
  });
});
