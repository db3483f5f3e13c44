import { describe, expect, it } from "vitest";
import { acceptedLanguages, negotiateLocale, translate } from "./index.js";

describe("translate", () => {
  it("fills placeholders and picks the plural variant of the locale", () => {
    expect(translate("en", "members.count", { count: 1 })).toBe("1 member");
    expect(translate("en", "members.count", { count: 3 })).toBe("3 members");
    expect(translate("de", "members.count", { count: 1 })).toBe("1 Mitglied");
    expect(translate("de", "common.save")).toBe("Speichern");
  });

  it("leaves an unknown placeholder visible instead of printing undefined", () => {
    expect(translate("en", "members.count")).toBe("{count} members");
    expect(translate("en", "common.save", { count: "x" })).toBe("Save");
  });
});

describe("negotiateLocale", () => {
  it("takes the first tag whose language we speak, else English", () => {
    expect(negotiateLocale(["fr-FR", "de-AT", "en"])).toBe("de");
    expect(negotiateLocale(["fr"])).toBe("en");
    expect(negotiateLocale([])).toBe("en");
  });

  it("orders Accept-Language by weight and drops q=0", () => {
    expect(acceptedLanguages("en;q=0.5, de-DE, fr;q=0")).toEqual(["de-DE", "en"]);
    expect(negotiateLocale(acceptedLanguages("fr;q=0.9, de;q=0.8, en;q=0.1"))).toBe("de");
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
