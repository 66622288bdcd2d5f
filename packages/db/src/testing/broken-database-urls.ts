/**
 * `databaseUrl` moved to 127.0.0.1 port 1 (tcpmux), which nothing here serves: every connection
 * is refused, as by a database that is down.
 */
export function unreachableDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = '1';
  return url.toString();
}

/** The database name {@link missingDatabaseUrl} asks for; tests look for it in logs and answers. */
export const MISSING_DATABASE_NAME = 'database_that_does_not_exist';

/** `databaseUrl` naming a database the server does not have: it answers, and refuses the session. */
export function missingDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${MISSING_DATABASE_NAME}`;
  return url.toString();
}
