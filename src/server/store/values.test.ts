import { describe, expect, it } from "vitest";
import { isoTimestamp, toDate } from "./values.js";

describe("isoTimestamp", () => {
  const instant = new Date("2026-11-25T16:41:14.281Z");

  it("passes SQLite's stored text through as it is: what JSON.stringify makes of the Date", () => {
    const stored = instant.toISOString();
    expect(isoTimestamp(stored)).toBe(stored);
    expect(JSON.stringify({ at: isoTimestamp(stored) })).toBe(JSON.stringify({ at: instant }));
  });

  it("writes PostgreSQL's JSON text (any offset, any fraction) as the same instant in UTC", () => {
    expect(isoTimestamp("2026-11-25T16:41:14.281+00:00")).toBe("2026-11-25T16:41:14.281Z");
    expect(isoTimestamp("2026-11-25T22:11:14.281+05:30")).toBe("2026-11-25T16:41:14.281Z");
    expect(isoTimestamp("2026-11-25T16:41:14.28+00:00")).toBe("2026-11-25T16:41:14.280Z");
    expect(isoTimestamp("2026-11-25T16:41:14+00:00")).toBe("2026-11-25T16:41:14.000Z");
    expect(isoTimestamp("2026-11-25T16:41:14.2+00:00")).toBe("2026-11-25T16:41:14.200Z");
    expect(isoTimestamp("2026-11-25T16:41:14.281999+00:00")).toBe("2026-11-25T16:41:14.281Z");
    expect(isoTimestamp("2026-11-25T16:41:14.281+01:00")).toBe("2026-11-25T15:41:14.281Z");
  });

  it("answers what a Date makes of every fraction PostgreSQL writes in UTC", () => {
    for (const fraction of ["", ".5", ".05", ".005", ".123", ".1234", ".999999"]) {
      const text = `2026-01-02T03:04:05${fraction}+00:00`;
      expect(isoTimestamp(text)).toBe(new Date(text).toISOString());
    }
  });

  it("takes a Date or epoch milliseconds as toDate does", () => {
    expect(isoTimestamp(instant)).toBe("2026-11-25T16:41:14.281Z");
    expect(isoTimestamp(instant.getTime())).toBe("2026-11-25T16:41:14.281Z");
    expect(toDate(isoTimestamp(instant)).getTime()).toBe(instant.getTime());
  });

  it("reads any other text as a Date, so text that is no instant fails loudly", () => {
    expect(() => isoTimestamp("not-a-timestamp-24-charZ")).toThrow(RangeError);
  });
});
