import { describe, expect, it } from "vitest";
import { backoffDelayMs, retryWithBackoff } from "./backoff.js";

describe("retryWithBackoff (Google one-tap: 5 attempts from 1000 ms)", () => {
  it("waits 1000, 2000, 4000, 8000 ms between five failing attempts, then gives up", async () => {
    const waits: number[] = [];
    let calls = 0;
    await expect(
      retryWithBackoff(
        async () => {
          calls++;
          throw new Error("script blocked");
        },
        { maxAttempts: 5, baseDelayMs: 1000, sleep: async (ms) => void waits.push(ms) },
      ),
    ).rejects.toThrow("script blocked");
    expect(calls).toBe(5);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelayMs(4, 1000)).toBe(16000);
  });

  it("stops at the first success", async () => {
    const waits: number[] = [];
    const result = await retryWithBackoff(async (n) => (n < 2 ? Promise.reject(new Error("no")) : "ok"), {
      maxAttempts: 5,
      baseDelayMs: 1000,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(result).toBe("ok");
    expect(waits).toEqual([1000, 2000]);
  });
});
