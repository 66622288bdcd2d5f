/**
 * Reads a dotenv-style file (the format of .env files, Docker `env_file` and most secret
 * managers' exports): `NAME=value`, optional `export `, `#` comments, single or double quotes.
 * Double-quoted values understand \n, \" and \\; nothing is interpolated.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [index, rawLine] of text.split(/\r?\n/).entries()) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [, name, rest] = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line) ?? [];
    // The line number only: the text may be a secret pasted without its name.
    if (name === undefined || rest === undefined) throw new Error(`env file line ${index + 1} is not NAME=value`);
    env[name] = unquote(rest);
  }
  return env;
}

function unquote(value: string): string {
  if (value.startsWith('"')) {
    const end = value.lastIndexOf('"');
    const inner = end > 0 ? value.slice(1, end) : value.slice(1);
    return inner.replace(/\\(n|"|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  if (value.startsWith("'")) {
    const end = value.lastIndexOf("'");
    return end > 0 ? value.slice(1, end) : value.slice(1);
  }
  // Unquoted: a ` #` starts a comment.
  return value.replace(/\s+#.*$/, '').trim();
}
