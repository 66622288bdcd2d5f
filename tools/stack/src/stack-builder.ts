// Assembles a local stack one piece at a time and takes it down in reverse: each piece started
// through the builder, and each teardown handed to `defer`, is undone by the one `stop()`. Tests,
// the browser run, chaos, the benches and `npm start` all build their stacks with it; what they
// run on top (app processes through `apps`, workers, receivers) joins the same teardown.
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '@staging/db/testing';
import type { CreateTestDatabaseOptions, TestDatabase } from '@staging/db/testing';
import { startProviderSimulator } from '@staging/provider-simulator/simulator';
import type { ProviderSimulator, ProviderSimulatorOptions } from '@staging/provider-simulator/simulator';
import { startChildApp } from './child-app';
import type { ChildApp, ChildAppLauncher, ChildAppOptions } from './child-app';
import { startS3rver } from './s3-server';
import type { RunningS3rver, StartS3rverOptions } from './s3-server';

type Teardown = () => Promise<unknown> | unknown;

export interface StackBuilder {
  /** Runs `teardown` at stop(), before everything registered earlier. */
  defer(teardown: Teardown): void;
  /** A fresh migrated database, dropped at stop(). */
  database(options?: CreateTestDatabaseOptions): Promise<TestDatabase>;
  /** s3rver (port 0 unless given), stopped at stop(). */
  s3rver(options: StartS3rverOptions): Promise<RunningS3rver>;
  /** The provider simulator in this process (port 0 unless given), stopped at stop(). */
  simulator(options: ProviderSimulatorOptions): Promise<ProviderSimulator>;
  /**
   * A launcher of child apps that stop() stops together (SIGTERM, and SIGKILL once `graceMs`
   * passed when given); each app's options are `defaults` with its own over them.
   */
  apps(defaults: Partial<ChildAppOptions>, graceMs?: number): ChildAppLauncher;
  /** Stops what was started, last first; a second call finds nothing left to stop. */
  stop(): Promise<void>;
}

export function stackBuilder(): StackBuilder {
  const teardowns: Teardown[] = [];
  const started = async <T extends { stop(): Promise<void> }>(piece: Promise<T>): Promise<T> => {
    const running = await piece;
    teardowns.push(() => running.stop());
    return running;
  };
  return {
    defer(teardown) {
      teardowns.push(teardown);
    },
    async database(options) {
      const database = await createTestDatabase(options);
      teardowns.push(() => database.drop());
      return database;
    },
    s3rver: (options) => started(startS3rver(options)),
    simulator: (options) => started(startProviderSimulator(options)),
    apps(defaults, graceMs) {
      const running: ChildApp[] = [];
      teardowns.push(() => Promise.all(running.map((app) => app.stop(graceMs))));
      return (options) => {
        const app = startChildApp({ ...defaults, ...options });
        running.push(app);
        return app;
      };
    },
    async stop() {
      for (const teardown of teardowns.splice(0).reverse()) await teardown();
    },
  };
}

/**
 * Runs `build` with a new builder; when it throws, stops whatever it had started and rethrows, so
 * a stack that fails half-way through its start leaves nothing running.
 */
export async function buildStack<T>(build: (stack: StackBuilder) => Promise<T>): Promise<T> {
  const stack = stackBuilder();
  try {
    return await build(stack);
  } catch (error) {
    await stack.stop().catch(() => undefined);
    throw error;
  }
}

/** A queue namespace (QUEUE_SUFFIX) no other run shares: `prefix` and eight random hex digits. */
export function uniqueQueueSuffix(prefix: string): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

/** The worker's and web's S3_* settings for a bucket of an s3rver (which takes any access key). */
export function s3rverEnv(endpoint: string, bucket: string, secretAccessKey: string): Record<string, string> {
  return {
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: secretAccessKey,
    S3_BUCKET: bucket,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
