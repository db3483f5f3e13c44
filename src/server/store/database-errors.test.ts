import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database.js";

describe("isDatabaseUnavailable", () => {
  it.each([
    [{ code: "ECONNREFUSED" }],
    [{ code: "57P01", message: "terminating connection due to administrator command" }],
    [{ code: "08006" }],
    [{ code: "SQLITE_BUSY" }],
    [{ code: "SQLITE_IOERR_WRITE" }],
    [new Error("Connection terminated unexpectedly")],
    [new TypeError("The database connection is not open")],
    [Object.assign(new AggregateError([{ code: "ECONNREFUSED" }, { code: "ECONNREFUSED" }]), { code: undefined })],
  ])("says %j is an outage", (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [{ code: "23505" }],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE" }],
    [{ code: "42P01", message: 'relation "user" does not exist' }],
    [new Error("refused by test")],
    [null],
  ])("says %j is not", (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
