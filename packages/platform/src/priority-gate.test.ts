import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { createPriorityGate } from './priority-gate';
import type { PriorityGate } from './priority-gate';

/** A promise with its resolve, to hold urgent work open. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every already-settled promise callback run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Asks for a background turn; the returned function says whether it has been given yet. */
function askTurn(gate: PriorityGate): () => boolean {
  let given = false;
  void gate.backgroundTurn().then(() => (given = true));
  return () => given;
}

/** A gate with a 100 ms cap, on fake timers, whose urgent work never ends. */
function gateHeldForever(): PriorityGate {
  jest.useFakeTimers();
  const gate = createPriorityGate({ maxWaitMs: 100 });
  void gate.urgent(() => new Promise<void>(() => undefined));
  return gate;
}

describe('priority gate', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('gives background work its turn at once when nothing urgent is in flight', async () => {
    const gate = createPriorityGate({ maxWaitMs: 60_000 });
    const turned = askTurn(gate);
    await flush();
    expect(turned()).toBe(true);
  });

  it('holds background turns while urgent work is in flight and releases them when the last ends', async () => {
    const gate = createPriorityGate({ maxWaitMs: 60_000 });
    const first = deferred();
    const second = deferred();
    const urgentA = gate.urgent(() => first.promise);
    const urgentB = gate.urgent(() => second.promise);
    expect(gate.urgentInFlight()).toBe(2);
    const turns = [askTurn(gate), askTurn(gate)];
    expect(gate.backgroundWaiting()).toBe(2);

    first.resolve();
    await urgentA;
    await flush();
    expect(turns.map((given) => given())).toEqual([false, false]);

    second.resolve();
    await urgentB;
    await flush();
    expect(turns.map((given) => given())).toEqual([true, true]);
    expect(gate.urgentInFlight()).toBe(0);
    expect(gate.backgroundWaiting()).toBe(0);
  });

  it('returns what the urgent work returns and releases the gate when it throws', async () => {
    const gate = createPriorityGate({ maxWaitMs: 60_000 });
    await expect(gate.urgent(async () => 42)).resolves.toBe(42);
    await expect(gate.urgent(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.urgentInFlight()).toBe(0);
    const turned = askTurn(gate);
    await flush();
    expect(turned()).toBe(true);
  });

  it('lets a background turn go after maxWaitMs when urgent work never ends', async () => {
    const gate = gateHeldForever();
    const turned = askTurn(gate);
    await jest.advanceTimersByTimeAsync(99);
    expect(turned()).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(turned()).toBe(true);
  });

  it('a new urgent piece after the previous ones ended holds the next turns again', async () => {
    const gate = createPriorityGate({ maxWaitMs: 60_000 });
    await gate.urgent(async () => undefined);
    const held = deferred();
    const urgent = gate.urgent(() => held.promise);
    const turned = askTurn(gate);
    await flush();
    expect(turned()).toBe(false);
    held.resolve();
    await urgent;
    await flush();
    expect(turned()).toBe(true);
  });

  it('a turn the cap let go while urgent work never ends is no longer counted as waiting', async () => {
    const gate = gateHeldForever();
    for (let turn = 0; turn < 50; turn += 1) {
      const next = gate.backgroundTurn();
      expect(gate.backgroundWaiting()).toBe(1);
      await jest.advanceTimersByTimeAsync(100);
      await next;
    }
    expect(gate.backgroundWaiting()).toBe(0);
  });

  it('refuses a cap that is negative, fractional, not a number or beyond what a timer can wait', () => {
    for (const maxWaitMs of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => createPriorityGate({ maxWaitMs })).toThrow(RangeError);
    }
    expect(() => createPriorityGate({ maxWaitMs: 0 })).not.toThrow();
  });
});
