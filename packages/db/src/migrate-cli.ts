// `pnpm db:migrate [-- --up-to NNNN]`: applies pending migrations to DATABASE_URL.
// DATABASE_URL is read here directly because the migrate step runs before any role's config exists.
import { migrate } from './migrate';

function parseUpTo(argv: string[]): string | undefined {
  const index = argv.indexOf('--up-to');
  if (index === -1) return undefined;
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error('--up-to needs a migration name, e.g. --up-to 0007');
  return value;
}

async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- see the file header
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set; point it at the database to migrate.');
  await migrate({ databaseUrl, log: (line) => console.log(line), upTo: parseUpTo(process.argv.slice(2)) });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
