import { describe, expect, it } from "vitest";
import { judgePassword, loadCommonPasswords } from "./password-strength.js";

describe("judgePassword (the app's password meter)", () => {
  it("refuses what the server refuses: too short, or on the common list in any case", async () => {
    const common = await loadCommonPasswords();
    expect(common.size).toBeGreaterThan(30_000);
    expect(judgePassword("short", 8, common)).toMatchObject({ score: 0, refused: true });
    expect(judgePassword("Iloveyou1", 8, common)).toMatchObject({ score: 0, refused: true });
    expect(judgePassword("PASSWORD1", 8, common).label).toBe("password.strength.tooCommon");
  });

  it("grades the rest by length and variety, and repeats count little", async () => {
    const common = await loadCommonPasswords();
    expect(judgePassword("aaaaaaaaaaaa", 8, common).score).toBe(1);
    expect(judgePassword("kqzvhtwm", 8, common).score).toBe(1);
    expect(judgePassword("q7-harbor-kiln", 8, common).score).toBeGreaterThanOrEqual(3);
    expect(judgePassword("correct horse battery staple", 8, common)).toMatchObject({ score: 4, refused: false });
  });
});
