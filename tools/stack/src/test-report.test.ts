import { countJestReport, countPlaywrightReport } from './test-report';

describe('countJestReport', () => {
  it('sums passed and failed tests and counts suites that could not run as failures', () => {
    expect(
      countJestReport({ numPassedTests: 7, numFailedTests: 2, numRuntimeErrorTestSuites: 1 }),
    ).toEqual({ passed: 7, failed: 3 });
  });

  it('treats a missing report as zero', () => {
    expect(countJestReport(undefined)).toEqual({ passed: 0, failed: 0 });
  });
});

describe('countPlaywrightReport', () => {
  it('counts flaky as passed and global errors as failures', () => {
    expect(
      countPlaywrightReport({ stats: { expected: 5, unexpected: 1, flaky: 2 }, errors: [{}] }),
    ).toEqual({ passed: 7, failed: 2 });
  });
});
