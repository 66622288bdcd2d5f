import { parseCpuPressure, startCpuPressure } from './cpu-pressure';

describe('--cpu-pressure', () => {
  it('is off without the flag, two loops with it, N with =N', () => {
    expect(parseCpuPressure([])).toBe(0);
    expect(parseCpuPressure(['--cpu-pressure'])).toBe(2);
    expect(parseCpuPressure(['--cpu-pressure=3'])).toBe(3);
  });

  it('refuses a count that is not a positive whole number', () => {
    for (const bad of ['--cpu-pressure=0', '--cpu-pressure=two', '--cpu-pressure=1.5'])
      expect(() => parseCpuPressure([bad])).toThrow(/whole number/);
  });

  it('starts busy loops that the returned function ends', async () => {
    const stop = startCpuPressure(1);
    // ps shows a second node process of ours only while the loop runs; stopping it must end it.
    const { execFileSync } = await import('node:child_process');
    const mine = () =>
      execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('for (;;) {}'));
    expect(mine()).toHaveLength(1);
    stop();
    for (let i = 0; i < 200 && mine().length > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(mine()).toHaveLength(0);
  });
});
