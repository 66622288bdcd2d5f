import { searchDocumentKey } from '@staging/platform/queues';

export { searchDocumentKey };

/**
 * Set of the property IDs that have a live search document, one set per QUEUE_SUFFIX. The
 * document key itself (`psearch:property:<id>`) is fixed by docs/system.md 2.4 and has no suffix; the
 * suffixed set is what keeps deployments (and parallel test runs) sharing one Redis from seeing
 * each other's listings, and it lets a search read its candidates without a keyspace SCAN.
 */
export function searchIndexKey(queueSuffix: string): string {
  return `psearch:index${queueSuffix}`;
}
