import { parse } from "hono/utils/cookie";
import { describe, expect, it } from "vitest";
import { readCookie } from "./cookie-header.js";

const NAME = "x.session_token";
const HOST = "__Host-x.session_token";

/** What Hono's getCookie reads for this name: the reader must agree with it on every header. */
function honoReads(header: string, name: string): string | undefined {
  return parse(header, name)[name];
}

describe("readCookie", () => {
  const cases: [string, string, string | undefined][] = [
    ["x.session_token=abc", NAME, "abc"],
    ["a=1; x.session_token=abc; b=2", NAME, "abc"],
    ["a=1;x.session_token=abc;b=2", NAME, "abc"],
    // A longer name that starts with ours, or ends with it, is another cookie.
    ["x.session_token_old=old", NAME, undefined],
    ["x.session_token_old=old; x.session_token=new", NAME, "new"],
    ["old_x.session_token=old", NAME, undefined],
    ["old_x.session_token=old; x.session_token=new", NAME, "new"],
    // The name inside another cookie's value.
    ["a=x.session_token=evil", NAME, undefined],
    ["a=x.session_token=evil; x.session_token=good", NAME, "good"],
    ["a=b x.session_token=evil", NAME, undefined],
    // The __Host- prefix is part of the name: neither matches the other.
    ["__Host-x.session_token=secure", HOST, "secure"],
    ["__Host-x.session_token=secure", NAME, undefined],
    ["x.session_token=plain", HOST, undefined],
    ["x.session_token=plain; __Host-x.session_token=secure", HOST, "secure"],
    // Spaces and tabs around names and values.
    ["  x.session_token  =  abc  ; b=2", NAME, "abc"],
    ["\tx.session_token\t=\tabc\t", NAME, "abc"],
    ["x.session_token=a b", NAME, "a b"],
    // Quotes: one surrounding pair is dropped; a lone quote reads as empty.
    ['x.session_token="abc"', NAME, "abc"],
    ['x.session_token= "abc" ', NAME, "abc"],
    ['x.session_token="abc', NAME, undefined],
    ['x.session_token="', NAME, ""],
    ['x.session_token=""', NAME, ""],
    // Percent-encoding: decoded when present; a malformed sequence stays as it is.
    ["x.session_token=a%2Bb%2F%3D", NAME, "a+b/="],
    ["x.session_token=a%ZZb", NAME, "a%ZZb"],
    ["x.session_token=a%E0%A4%A.x%2B", NAME, "a%E0%A4%A.x+"],
    ["x.session_token=%", NAME, "%"],
    // Empty and missing values.
    ["x.session_token=", NAME, ""],
    ["x.session_token", NAME, undefined],
    ["x.session_token; x.session_token=later", NAME, "later"],
    ["", NAME, undefined],
    [";;;", NAME, undefined],
    ["x.session_token =", NAME, ""],
    // Duplicates: the first acceptable one wins; one with characters outside cookie-octet is skipped.
    ["x.session_token=first; x.session_token=second", NAME, "first"],
    ["x.session_token=; x.session_token=second", NAME, ""],
    ['x.session_token=a"b; x.session_token=second', NAME, "second"],
    ["x.session_token=a\\b; x.session_token=second", NAME, "second"],
    ["x.session_token=caf\u00e9; x.session_token=second", NAME, "second"],
    ["x.session_token=a,b=c", NAME, "a,b=c"],
    // A value that ends the header without a semicolon, and one followed by one.
    ["b=2; x.session_token=last", NAME, "last"],
    ["b=2; x.session_token=last;", NAME, "last"],
  ];

  it.each(cases)("%j reads %s as %j", (header, name, expected) => {
    expect(readCookie(header, name)).toBe(expected);
    expect(readCookie(header, name)).toBe(honoReads(header, name));
  });

  it("never matches a name Hono would refuse", () => {
    expect(readCookie("a b=1", "a b")).toBeUndefined();
    expect(readCookie("=1", "")).toBeUndefined();
  });

  it("agrees with Hono on generated headers", () => {
    // Pieces chosen to collide: the name, its prefixes and extensions, separators, quotes, escapes.
    const pieces = [
      NAME,
      `${NAME}=`,
      `; ${NAME}=`,
      "x.session",
      "_old",
      "=",
      ";",
      " ",
      "\t",
      '"',
      "%",
      "%2B",
      "%Z",
      "a",
      "b=c",
      "\\",
      "é",
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    let found = 0;
    for (let n = 0; n < 5000; n++) {
      let header = "";
      const length = 1 + (next() % 12);
      for (let i = 0; i < length; i++) header += pieces[next() % pieces.length];
      const value = readCookie(header, NAME);
      expect(value, header).toBe(honoReads(header, NAME));
      if (value !== undefined) found++;
    }
    // The headers are built so that a good share hold the cookie: agreement on absence alone proves little.
    expect(found).toBeGreaterThan(500);
  });
});
