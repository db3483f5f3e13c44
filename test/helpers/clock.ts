/** A clock tests can move forward to check expiry, without waiting. */
export interface TestClock {
  now(): Date;
  advance(seconds: number): void;
}

export function createTestClock(start: Date = new Date()): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(start.getTime() + offsetMs + (Date.now() - startedAt)),
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
  };
}

const startedAt = Date.now();
