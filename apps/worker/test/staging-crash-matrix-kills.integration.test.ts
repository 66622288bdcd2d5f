// The crash matrix at every step boundary: a worker killed there, a fresh one restarted, and the
// job still ends with one purchase and no untracked object. Helpers: support/crash-matrix.ts.
import { describe, expect, it } from '@jest/globals';
import { STEP_BOUNDARIES } from '../src/staging/staging-deps';
import { expectNoUntrackedObjects, settings, useStack } from './support/crash-matrix';

const stack = useStack();

describe('crash matrix: SIGKILL at each step boundary, then restart', () => {
  it.each(STEP_BOUNDARIES.map((b) => [b]))(
    'killed at %s: the job finishes with exactly one purchase',
    async (boundary) => {
      // while-waiting is only reached while the prediction runs: on a slow machine the first poll
      // could find it finished, so it finishes when the test says, after the kill.
      const holdPrediction = boundary === 'while-waiting';
      if (holdPrediction) await stack().faults(['never_complete']);
      const { jobId, propertyId } = await stack().seedJob();
      const doomed = await stack().spawnWorker({ args: [`--test-crash-at=${boundary}`], settings });
      // The exit is the event; a worker that never reaches the boundary hangs into the Jest timeout.
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(doomed.stderr()).toContain(`SIGKILL at ${boundary}`);
      if (holdPrediction) {
        const [running] = await stack().purchasesFor(jobId);
        await stack().sim.completePrediction(running!.id);
      }

      const survivor = await stack().spawnReadyWorker({ settings });
      const status = await stack().waitForStatus(jobId, ['SUCCESS', 'CANCELED', 'FAILED']);
      expect(status).toBe('SUCCESS');
      const attempts = await stack().db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
      // A restart alone never moves to attempt 2, and never buys an attempt twice.
      expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
      expect(await stack().purchasesFor(jobId)).toHaveLength(1);
      expect(await stack().db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(1);
      await expectNoUntrackedObjects(stack(), jobId, propertyId);

      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toEqual({ code: 0, signal: null });
    },
    300_000,
  );
});
