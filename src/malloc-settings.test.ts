import { describe, expect, it } from "vitest";
import { MALLOC_SETTINGS, mallocRestartEnv } from "./malloc-settings.js";

describe("the service's glibc malloc settings", () => {
  it("restarts on Linux with the settings added to the environment", () => {
    expect(mallocRestartEnv("linux", { PATH: "/bin" }, true)).toEqual({ PATH: "/bin", ...MALLOC_SETTINGS });
  });

  it("runs as is elsewhere, without process.execve, or when the operator chose a value", () => {
    expect(mallocRestartEnv("win32", {}, true)).toBeNull();
    expect(mallocRestartEnv("darwin", {}, true)).toBeNull();
    expect(mallocRestartEnv("linux", {}, false)).toBeNull();
    expect(mallocRestartEnv("linux", { MALLOC_MMAP_THRESHOLD_: "65536" }, true)).toBeNull();
  });
});
