/**
 * Rejects with `Error(message)` when `operation` has not settled within `timeoutMs`; otherwise
 * settles as it does. The operation itself is not stopped: callers use this only where finishing
 * late is harmless.
 */
export async function withTimeout<T>(operation: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  try {
    return await Promise.race([operation, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
