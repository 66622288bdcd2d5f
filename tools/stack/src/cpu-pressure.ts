// `npm test -- --cpu-pressure[=N]`: runs the suite beside N busy-loop processes (default 2, one per
// core of the reference machine), so a test that depends on how fast the machine is shows up here
// rather than on a busy CI runner.
import { spawn } from 'node:child_process';

const FLAG = '--cpu-pressure';

/** The number of busy loops the arguments ask for; 0 without the flag. */
export function parseCpuPressure(args: readonly string[]): number {
  const arg = args.find((a) => a === FLAG || a.startsWith(`${FLAG}=`));
  if (arg === undefined) return 0;
  if (arg === FLAG) return 2;
  const count = Number(arg.slice(FLAG.length + 1));
  if (!Number.isInteger(count) || count < 1) throw new Error(`${FLAG} wants a whole number of busy loops, got "${arg}"`);
  return count;
}

/** Starts `count` processes that each keep one core busy; the returned function ends them. */
export function startCpuPressure(count: number): () => void {
  const loops = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return () => {
    for (const loop of loops) loop.kill('SIGKILL');
  };
}
