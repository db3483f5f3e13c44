import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { isCommonPassword } from "./common-passwords.js";

const require = createRequire(import.meta.url);

describe("isCommonPassword", () => {
  // First: the other tests load the package themselves.
  it("keeps the list, not the dictionary package, once loaded", () => {
    isCommonPassword("password");
    expect(Object.keys(require.cache).filter((path) => path.includes("@zxcvbn-ts"))).toEqual([]);
  });

  it("refuses the list's passwords in any case, and takes others", () => {
    expect(isCommonPassword("password")).toBe(true);
    expect(isCommonPassword("PassWord")).toBe(true);
    expect(isCommonPassword("123456")).toBe(true);
    expect(isCommonPassword("correct horse battery staple 42")).toBe(false);
    expect(isCommonPassword("")).toBe(false);
  });

  it("finds every password of the list, and none a letter away", () => {
    const { dictionary } = require("@zxcvbn-ts/language-common") as typeof import("@zxcvbn-ts/language-common");
    const list = dictionary["passwords-common"];
    expect(list.filter((password) => !isCommonPassword(password))).toEqual([]);
    const listed = new Set(list);
    const near = list.slice(0, 2000).map((password) => `${password}\u00e9`);
    expect(near.filter((password) => isCommonPassword(password) !== listed.has(password))).toEqual([]);
  });

  it("does not match two listed passwords joined by a line break", () => {
    expect(isCommonPassword("123456\npassword")).toBe(false);
    expect(isCommonPassword("password\n")).toBe(false);
  });
});
