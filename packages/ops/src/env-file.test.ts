import { parseEnvFile } from './env-file';

describe('parseEnvFile', () => {
  it('reads NAME=value lines with export, comments and quotes', () => {
    const env = parseEnvFile(
      [
        '# comment',
        '',
        'PLAIN=value',
        'export EXPORTED=yes',
        'TRAILING=abc # note',
        'DOUBLE="a b\\n\\"c\\""',
        "SINGLE='x # not a comment'",
        'EMPTY=',
        'URL=postgresql://u:p@h:5432/db?sslmode=require',
      ].join('\n'),
    );
    expect(env).toEqual({
      PLAIN: 'value',
      EXPORTED: 'yes',
      TRAILING: 'abc',
      DOUBLE: 'a b\n"c"',
      SINGLE: 'x # not a comment',
      EMPTY: '',
      URL: 'postgresql://u:p@h:5432/db?sslmode=require',
    });
  });

  it('refuses a line that is not an assignment, naming the line but never its text', () => {
    let message = '';
    try {
      parseEnvFile('OK=1\nr8_pastedTokenWithoutName');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('env file line 2 is not NAME=value');
    expect(() => parseEnvFile('1BAD=x')).toThrow('env file line 1 is not NAME=value');
  });
});
