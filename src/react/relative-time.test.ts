import { describe, expect, it } from "vitest";
import { relativeTime } from "./relative-time.js";

const now = new Date("2026-11-25T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("relativeTime", () => {
  it("tells past moments in English and German", () => {
    expect(relativeTime(ago(2 * 3600), now, "en")).toBe("2 hours ago");
    expect(relativeTime(ago(2 * 3600), now, "de")).toBe("vor 2 Stunden");
    expect(relativeTime(ago(5 * 60), now, "en")).toBe("5 minutes ago");
    expect(relativeTime(ago(86_400), now, "en")).toBe("yesterday");
    expect(relativeTime(ago(3 * 86_400), now, "de")).toBe("vor 3 Tagen");
    expect(relativeTime(ago(400 * 86_400), now, "en")).toBe("last year");
  });

  it("says now for the last minute and rounds toward zero", () => {
    expect(relativeTime(ago(20), now, "en")).toBe("now");
    expect(relativeTime(ago(20), now, "de")).toBe("jetzt");
    expect(relativeTime(ago(110 * 60), now, "en")).toBe("1 hour ago");
  });
});
