import { CHAOS_HELP, parseChaosArgs, wantsHelp } from './chaos-args';
import { rerunCommand } from './run-chaos';

describe('parseChaosArgs', () => {
  it('leaves the daily cap unset by default and reads --daily-cap as a positive integer', () => {
    expect(parseChaosArgs(['--seed', '3']).dailyPurchaseCap).toBeNull();
    expect(parseChaosArgs(['--seed', '3', '--daily-cap', '5']).dailyPurchaseCap).toBe(5);
    expect(() => parseChaosArgs(['--daily-cap', '0'])).toThrow('--daily-cap must be an integer ≥ 1');
  });

  it('reruns a capped run with its cap', () => {
    expect(rerunCommand(parseChaosArgs(['--kills', '4', '--seed', '3', '--daily-cap', '5']))).toBe(
      'pnpm chaos --kills 4 --seed 3 --daily-cap 5',
    );
    expect(rerunCommand(parseChaosArgs(['--kills', '4', '--seed', '3']))).toBe(
      'pnpm chaos --kills 4 --seed 3',
    );
  });
});

describe('chaos --help', () => {
  it('is asked for by --help or -h and names every option the parser takes', () => {
    expect(wantsHelp(['--kills', '3', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--kills', '3'])).toBe(false);
    for (const option of ['--kills', '--seed', '--jobs', '--workers', '--rate-limit', '--drain-seconds', '--daily-cap']) {
      expect(CHAOS_HELP).toContain(option);
      expect(() => parseChaosArgs([option, '2'])).not.toThrow();
    }
    expect(() => parseChaosArgs(['--kill', '1'])).toThrow();
  });
});
