import type { Db } from '@staging/db/client';
import { listenForNotifications } from '@staging/db/notification-listener';
import type { NotificationListener, NotificationListenerOptions } from '@staging/db/notification-listener';
import { CHANGE_NOTIFICATIONS_CHANNEL, ZChangeNotification } from '@staging/db/change-notifications';
import type { ChangeNotification, StagingEvent } from '@staging/db/change-notifications';
import { AppError, ErrorCode } from '@staging/domain/errors';
import type { Logger } from '@staging/platform/logger';
import { propertyReaders } from '../access/property-access';
import type { Actor } from '../access/property-access';

/** Bounds of one process's live streams (docs/decisions/web.md "Live status by LISTEN/NOTIFY"). */
export interface LiveStreamLimits {
  /** Streams open at once in this process; past it a new one is refused and the page polls. */
  maxStreams: number;
  /** Streams of one user open at once in this process: a tab holds one. */
  maxStreamsPerUser: number;
  /** Events waiting for a stream that does not read; past it they collapse into one resync. */
  maxQueuedEvents: number;
}

export const LIVE_STREAM_LIMITS: LiveStreamLimits = { maxStreams: 1_000, maxStreamsPerUser: 10, maxQueuedEvents: 100 };

/** How long a refused stream should wait before trying again, in seconds. */
const REFUSED_RETRY_AFTER_SECONDS = 60;

const RESYNC: StagingEvent = { kind: 'resync' };

/** Events of one stream, waiting to be read; bounded, and ended when the stream goes. */
class Mailbox {
  private readonly events: StagingEvent[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(private readonly capacity: number) {}

  put(event: StagingEvent): void {
    if (this.ended) return;
    // A reader this far behind gains nothing from each change: one resync says it all.
    if (this.events.length >= this.capacity) this.events.splice(0, this.events.length, RESYNC);
    else this.events.push(event);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *drain(): AsyncGenerator<StagingEvent, void> {
    for (;;) {
      const next = this.events.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

interface Stream {
  actor: Actor;
  mailbox: Mailbox;
}

export interface StagingEventHub {
  /**
   * The staging events of every property `actor` may read (property.get's rule), from now until
   * `signal` aborts, beginning with a resync once the process listens. Refused with
   * TOO_MANY_REQUESTS past the limits.
   */
  subscribe(actor: Actor, signal: AbortSignal): AsyncIterable<StagingEvent>;
  /** Streams open now (diagnostics and tests). */
  streamCount(): number;
  /** Ends every stream and the listening connection. */
  close(): Promise<void>;
}

export interface StagingEventHubOptions {
  db: Db;
  logger: Logger;
  limits?: LiveStreamLimits;
  /** Timing of the listening connection; tests shorten the reconnect pause. */
  listener?: Pick<NotificationListenerOptions, 'minRetryMs' | 'maxRetryMs' | 'checkIntervalMs'>;
}

/**
 * One process's fan-out of the database's change notifications to live streams. It starts
 * listening with the first stream (a build or a process nobody subscribes to never connects) and
 * keeps its one connection until closed. Each notification costs one query, whatever the number
 * of streams: who may read its property; the streams of those actors get it. Notifications are
 * handled one after another, so each stream sees them in commit order.
 */
export function createStagingEventHub(options: StagingEventHubOptions): StagingEventHub {
  const { db, logger } = options;
  const limits = options.limits ?? LIVE_STREAM_LIMITS;
  const streams = new Set<Stream>();
  let listener: NotificationListener | undefined;
  let listening = false;
  let closed = false;
  let handling: Promise<void> = Promise.resolve();

  const broadcast = (event: StagingEvent): void => {
    for (const stream of streams) stream.mailbox.put(event);
  };

  const startListening = (): void => {
    listener = listenForNotifications(db, {
      ...options.listener,
      channel: CHANGE_NOTIFICATIONS_CHANNEL,
      onNotification: (payload) => {
        handling = handling.then(() => deliverNotification(payload, { db, logger, streams, broadcast }));
      },
      onListening: (resumed) => {
        listening = true;
        if (resumed) logger.info({ event: 'live_status.listening_resumed' }, 'live status: listening again');
        broadcast(RESYNC);
      },
      onConnectionLost: (error, retryInMs) => {
        listening = false;
        logger.warn({ event: 'live_status.listening_lost', err: error, retryInMs }, 'live status: listening connection lost');
      },
    });
  };

  return {
    subscribe(actor, signal) {
      if (closed) throw new AppError(ErrorCode.TEMPORARILY_UNAVAILABLE, 'The server is shutting down');
      const refusal = admissionRefusal(streams, actor, limits);
      if (refusal !== undefined) throw refusal;

      const stream: Stream = { actor, mailbox: new Mailbox(limits.maxQueuedEvents) };
      streams.add(stream);
      if (listener === undefined) startListening();
      // Before listening, the first resync waits for onListening: a read made now could miss a
      // change that no notification would report.
      if (listening) stream.mailbox.put(RESYNC);
      return readUntilLeft(streams, stream, signal);
    },
    streamCount: () => streams.size,
    async close() {
      closed = true;
      for (const stream of streams) stream.mailbox.end();
      streams.clear();
      await listener?.close();
    },
  };
}

/**
 * Hands one notification to the streams whose actors may read its property. Nobody can be told
 * what changed when the readers cannot be looked up, so then everybody reads again.
 */
async function deliverNotification(
  payload: string,
  hub: { db: Db; logger: Logger; streams: ReadonlySet<Stream>; broadcast: (event: StagingEvent) => void },
): Promise<void> {
  const { db, logger, streams } = hub;
  if (streams.size === 0) return;
  const notification = readNotification(payload);
  if (notification === undefined) {
    logger.warn({ event: 'live_status.unreadable_notification' }, 'live status: a notification did not match the staging event shape');
    return;
  }
  let mayRead: (actor: Actor) => boolean;
  try {
    mayRead = await propertyReaders(db, notification.propertyId);
  } catch (error) {
    logger.warn({ event: 'live_status.readers_unavailable', err: error }, 'live status: could not look up who may read a property');
    hub.broadcast(RESYNC);
    return;
  }
  for (const stream of streams) if (mayRead(stream.actor)) stream.mailbox.put(notification);
}

/** The events of a joined stream until `signal` aborts or the reader stops; either way it leaves. */
function readUntilLeft(streams: Set<Stream>, stream: Stream, signal: AbortSignal): AsyncIterable<StagingEvent> {
  const leave = (): void => {
    streams.delete(stream);
    stream.mailbox.end();
  };
  if (signal.aborted) leave();
  else signal.addEventListener('abort', leave, { once: true });
  return (async function* () {
    try {
      yield* stream.mailbox.drain();
    } finally {
      signal.removeEventListener('abort', leave);
      leave();
    }
  })();
}

/** A notification's staging event, or undefined when the payload is not one. */
function readNotification(payload: string): ChangeNotification | undefined {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    json = undefined;
  }
  const parsed = ZChangeNotification.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Why one more stream for `actor` is refused (the server's or the user's limit), or undefined. */
function admissionRefusal(streams: ReadonlySet<Stream>, actor: Actor, limits: LiveStreamLimits): AppError | undefined {
  const refuse = (message: string): AppError =>
    new AppError(ErrorCode.TOO_MANY_REQUESTS, message, { retryAfterSeconds: REFUSED_RETRY_AFTER_SECONDS });
  if (streams.size >= limits.maxStreams) return refuse('Too many live connections on this server');
  let ofActor = 0;
  for (const stream of streams) if (stream.actor.id === actor.id) ofActor += 1;
  if (ofActor >= limits.maxStreamsPerUser) return refuse('Too many live connections for this user');
  return undefined;
}
