import { z } from 'zod';

/**
 * The PostgreSQL notification channel on which the database announces every change an agent waits
 * for: a staging job's status or phase, one of its provider attempts, an image of a property
 * added, removed or reviewed. Triggers of migration 0016 send on it, whichever process wrote the
 * row, so no writer can forget to. The name is the one those triggers send on and every deployed
 * listener listens to, hence older than this constant's.
 */
export const CHANGE_NOTIFICATIONS_CHANNEL = 'staging_events';

/**
 * What a change notification carries: identifiers and a state, never a secret, a URL or a file
 * name. `kind` `job` comes from ai_jobs and ai_provider_attempts (status: the job's), `image` from
 * property_images (jobId: the staging job of a staged image; status: its review status, null for
 * an original or a removed row).
 */
export const ZChangeNotification = z.object({
  kind: z.enum(['job', 'image']),
  propertyId: z.string().min(1),
  jobId: z.string().min(1).nullable(),
  status: z.string().min(1).nullable(),
});
export type ChangeNotification = z.infer<typeof ZChangeNotification>;

/**
 * What a subscriber of ai.stagingEvents receives: a change notification about one property it may
 * read, or `resync`, meaning "changes may have been missed; read again what you show". A stream
 * always starts with a resync (whatever the client loaded before it may be older than the stream),
 * and every subscriber gets one after the server's own listening connection came back, or when it
 * fell too far behind.
 */
export const ZStagingEvent = z.union([z.strictObject(ZChangeNotification.shape), z.strictObject({ kind: z.literal('resync') })]);
export type StagingEvent = z.infer<typeof ZStagingEvent>;
