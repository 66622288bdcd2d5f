import { createJestConfig } from '@staging/jest-preset/jest.base';

// Three test files at a time, not Jest's one on two cores: the crash matrix and the recovery
// files spend their minutes waiting on provider delays, list lags and restarted workers, not on
// the CPU. Every test stack is a deployment of its own (database, queue, simulator), so files
// running side by side never read each other's rows or purchases.
export default createJestConfig(import.meta.dirname, { maxWorkers: 3 });
