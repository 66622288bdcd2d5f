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
