import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient } from './generated/prisma/client';
export type * from './generated/prisma/client';

export type Db = PrismaClient;

/**
 * Prisma Client over the `pg` driver adapter: no native query engine is needed at runtime,
 * which matters on machines that cannot download Prisma's engines.
 */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.maxConnections ?? 10 });
  return new PrismaClient({ adapter });
}
