// Pure readers of the JSON reports Jest (`--json`) and Playwright (json reporter) write.

export interface TestCounts {
  passed: number;
  failed: number;
}

interface JestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numRuntimeErrorTestSuites?: number;
}

/** A suite that could not run (syntax error, failing import) counts as one failed test. */
export function countJestReport(report: unknown): TestCounts {
  const r = (report ?? {}) as JestReport;
  return {
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
  };
}

interface PlaywrightReport {
  stats?: { expected?: number; unexpected?: number; flaky?: number };
  errors?: unknown[];
}

/** Flaky tests passed on retry and count as passed; global errors count as failures. */
export function countPlaywrightReport(report: unknown): TestCounts {
  const r = (report ?? {}) as PlaywrightReport;
  return {
    passed: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0),
    failed: (r.stats?.unexpected ?? 0) + (r.errors?.length ?? 0),
  };
}
