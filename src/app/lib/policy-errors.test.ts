import { describe, expect, it } from "vitest";
import { serverFieldErrors } from "./policy-errors.js";

describe("the Policy form's server errors", () => {
  it("go to the settings a VALIDATION_ERROR names", () => {
    const error = {
      code: "VALIDATION_ERROR",
      message: "[body.idleTimeout] Too small; [body.allowedSignInMethods] Too small: expected array to have >=1 items",
    };
    expect(serverFieldErrors(error)).toEqual({
      fields: { idleTimeout: { key: "policy.error.idleTimeout" }, methods: { key: "policy.error.methods" } },
      rest: null,
    });
  });

  it("go to the setting a policy code is about, else to the form", () => {
    expect(serverFieldErrors({ code: "SSO_CONNECTION_REQUIRED" }).fields).toEqual({
      requireSSO: { key: "error.SSO_CONNECTION_REQUIRED" },
    });
    expect(serverFieldErrors({ code: "BREAK_GLASS_USER_MUST_BE_AN_OWNER" }).fields).toEqual({
      breakGlassUserIds: { key: "error.BREAK_GLASS_USER_MUST_BE_AN_OWNER" },
    });
    const lockOut = { code: "POLICY_WOULD_LOCK_YOU_OUT" };
    expect(serverFieldErrors(lockOut)).toEqual({ fields: {}, rest: lockOut });
    const unknownField = { code: "VALIDATION_ERROR", message: '[body] Unrecognized key: "x"' };
    expect(serverFieldErrors(unknownField)).toEqual({ fields: {}, rest: unknownField });
    expect(serverFieldErrors(null)).toEqual({ fields: {}, rest: null });
  });
});
