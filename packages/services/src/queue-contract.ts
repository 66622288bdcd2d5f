import { UnrecoverableError } from 'bullmq';
import type { Job, JobsOptions } from 'bullmq';
import type { z } from 'zod';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import type { QueueNames } from '@staging/platform/queues';

/**
 * Everything producers and the worker must agree on about one kind of message, side by side:
 * which queue carries it, its BullMQ job name, the payload versions it may have (one schema; a
 * new version is a union member) and the options it is added with. Producers build through
 * {@link buildMessage} and the worker reads through {@link readMessage}, so a field the worker
 * keeps between deliveries is declared here or it does not exist.
 */
export interface QueueContract<Schema extends z.ZodType> {
  queue: keyof QueueNames;
  jobName: string;
  schema: Schema;
  options: JobsOptions;
}

export function defineQueueContract<Schema extends z.ZodType>(contract: QueueContract<Schema>): QueueContract<Schema> {
  return contract;
}

/** A payload as the contract declares it. @throws ZodError when it is not one of its versions */
export function buildMessage<Schema extends z.ZodType>(contract: QueueContract<Schema>, payload: z.input<Schema>): z.output<Schema> {
  return contract.schema.parse(payload);
}

export type MessageReading<T> = { ok: true; payload: T } | { ok: false; problems: string[] };

/**
 * A delivered message read against its contract. The problems name paths and rule codes only,
 * never values: a refused message is logged, and a payload can hold anything a producer put there.
 */
export function readMessage<Schema extends z.ZodType>(
  contract: QueueContract<Schema>,
  job: Pick<Job, 'name' | 'data'>,
): MessageReading<z.output<Schema>> {
  if (job.name !== contract.jobName) return { ok: false, problems: [`job name is not ${contract.jobName}`] };
  const parsed = contract.schema.safeParse(job.data);
  if (parsed.success) return { ok: true, payload: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(payload)'}: ${issue.code}`),
  };
}

/** Error code of a refused message in logs and alerts. */
export const MESSAGE_REFUSED = 'QUEUE_MESSAGE_REFUSED';

type RefusalDeps = { logger: Logger; captureAlert: (alert: Alert) => void };

/**
 * Refuses a delivered message: it is logged, alerted (an old or foreign producer is writing to the
 * queue, and someone has to look) and failed for good with UnrecoverableError, so BullMQ keeps it
 * in the failed set for inspection and no processor ever runs it.
 */
export function refuseMessage(
  queue: keyof QueueNames,
  job: Pick<Job, 'id' | 'name'>,
  problems: string[],
  deps: RefusalDeps,
): never {
  const where = { queue, jobName: job.name, queueJobId: job.id ?? null };
  deps.logger.error({ event: 'queue.message_refused', errorCode: MESSAGE_REFUSED, ...where, problems }, 'queue message matches no declared version; refused');
  deps.captureAlert({
    message: 'queue message matches no declared version; refused',
    level: 'error',
    tags: { errorCode: MESSAGE_REFUSED, queue, jobName: job.name },
    extra: { queueJobId: job.id ?? null, problems },
  });
  throw new UnrecoverableError(`${MESSAGE_REFUSED}: ${problems.join('; ')}`);
}

/** The payload of a delivered message, or its refusal ({@link refuseMessage}). */
export function acceptMessage<Schema extends z.ZodType>(
  contract: QueueContract<Schema>,
  job: Pick<Job, 'id' | 'name' | 'data'>,
  deps: RefusalDeps,
): z.output<Schema> {
  const reading = readMessage(contract, job);
  if (reading.ok) return reading.payload;
  return refuseMessage(contract.queue, job, reading.problems, deps);
}
