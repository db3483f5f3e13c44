import { describe, expect, it } from "vitest";
import { logLine } from "./logger.js";

describe("log lines", () => {
  it("are one JSON object with time, level, message and the fields", () => {
    const line = logLine("error", "unhandled error", { requestId: "abc123", path: "/x" });
    expect(line).not.toContain("\n");
    const parsed = JSON.parse(line);
    expect(parsed).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      level: "error",
      message: "unhandled error",
      requestId: "abc123",
      path: "/x",
    });
  });

  it("keep their level and message whatever the fields hold", () => {
    const parsed = JSON.parse(logLine("warn", "mail delivery failed", { level: "info", message: "fine" }));
    expect(parsed).toMatchObject({ level: "warn", message: "mail delivery failed" });
  });
});
