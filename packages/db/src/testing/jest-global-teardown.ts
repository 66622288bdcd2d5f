// Drops the database jest-global-setup.ts created (and only that one) and restores the
// environment, so a watch-mode rerun creates a fresh database instead of reusing a dropped one.
import { JEST_RUN_STATE_KEY } from './jest-global-setup';
import type { JestRunState } from './jest-global-setup';

export default async function globalTeardown(): Promise<void> {
  const slot = globalThis as Record<string, unknown>;
  const state = slot[JEST_RUN_STATE_KEY] as JestRunState | undefined;
  if (state === undefined) return;
  delete slot[JEST_RUN_STATE_KEY];
  for (const [name, value] of Object.entries(state.previousEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await state.database.drop();
}
