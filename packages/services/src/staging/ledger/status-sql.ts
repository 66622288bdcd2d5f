import { Prisma } from '@staging/db/client';
import type { AttemptStatus } from '@staging/domain/attempt-states';
import type { JobStatus } from '@staging/domain/staging-states';

/**
 * A status list as SQL literals, for statements Prisma's query builder cannot express (ON
 * CONFLICT arbiters, CASE over the old row). The statuses come from the domain's closed sets, so
 * quoting them is safe; as literals they keep a partial index's predicate recognisable.
 */
export function sqlStatusList(statuses: readonly (JobStatus | AttemptStatus)[]): Prisma.Sql {
  return Prisma.raw(statusListText(statuses));
}

/** {@link sqlStatusList} as plain text, for prepared statements sent on the raw pool. */
export function statusListText(statuses: readonly (JobStatus | AttemptStatus)[]): string {
  return statuses.map((status) => `'${status}'`).join(', ');
}
