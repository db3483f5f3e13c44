/** A clock tests can move forward to check expiry, without waiting, or hold still. */
export interface TestClock {
  now(): Date;
  advance(seconds: number): void;
  /** Holds the time still until `resume()`: a wait that a slow burst outlives must not expire mid-test. */
  freeze(): void;
  resume(): void;
}

export function createTestClock(start: Date = new Date()): TestClock {
  // Measured from this clock's own start: a module-level origin would run a later clock ahead.
  const startedAt = Date.now();
  let offsetMs = 0;
  let frozenAt: number | null = null;
  const elapsed = () => frozenAt ?? Date.now() - startedAt;
  return {
    now: () => new Date(start.getTime() + offsetMs + elapsed()),
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    freeze: () => {
      frozenAt = elapsed();
    },
    resume: () => {
      if (frozenAt === null) return;
      offsetMs -= Date.now() - startedAt - frozenAt;
      frozenAt = null;
    },
  };
}
