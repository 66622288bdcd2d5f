import { searchDocumentKey } from '@staging/platform/queues';

export { searchDocumentKey };

/**
 * Set of the property IDs that have a live Redis search document, one set per QUEUE_SUFFIX. The
 * document key itself (`psearch:property:<id>`) is fixed by docs/system.md 2.4 and has no suffix; the
 * suffixed set is how a deployment (or a test run) sharing one Redis finds its own documents
 * without a keyspace SCAN. Public search reads PostgreSQL, not these.
 */
export function searchIndexKey(queueSuffix: string): string {
  return `psearch:index${queueSuffix}`;
}
