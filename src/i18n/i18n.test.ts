import { describe, expect, it } from "vitest";
import { acceptedLanguages, formatDateTime, locales, negotiateLocale, translate } from "./index.js";

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

describe("formatDateTime in UTC (mails), written without Intl", () => {
  // Every hour and a few minutes of each month, both sides of noon and midnight, one- and two-digit
  // days, and years at the written range's edges: each must read exactly as Intl writes it.
  const dates: Date[] = [];
  for (const year of [1000, 1999, 2026, 9999]) {
    for (let month = 0; month < 12; month++) {
      for (const day of [1, 9, 10, 28]) {
        for (let hour = 0; hour < 24; hour++) dates.push(new Date(Date.UTC(year, month, day, hour, (hour * 7) % 60)));
      }
    }
  }

  it.each(locales)("reads as Intl's medium date and short time (%s)", (locale) => {
    const intl = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    for (const date of dates) expect(formatDateTime(locale, date, "UTC")).toBe(intl.format(date));
    expect(formatDateTime(locale, 1, "UTC")).toBe(intl.format(1));
    expect(formatDateTime(locale, "2026-11-27T23:59:59.999Z", "UTC")).toBe(
      intl.format(new Date("2026-11-27T23:59:59.999Z")),
    );
  });

  it("hands what it does not write to Intl: other years, other zones, invalid dates", () => {
    const far = new Date(Date.UTC(12026, 0, 1));
    expect(formatDateTime("en", far, "UTC")).toBe(
      new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(far),
    );
    expect(formatDateTime("de", 0, "Europe/Berlin")).toBe("01.01.1970, 01:00");
    expect(() => formatDateTime("en", Number.NaN, "UTC")).toThrow(RangeError);
  });
});

describe("plural variants agree with Intl.PluralRules", () => {
  it.each(locales)("%s", (locale) => {
    const rules = new Intl.PluralRules(locale);
    for (const count of [
      0,
      1,
      2,
      5,
      11,
      21,
      100,
      101,
      -1,
      -2,
      0.5,
      1.5,
      1.0001,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]) {
      const variant = `members.count#${rules.select(count)}` as Parameters<typeof translate>[1];
      const expected = translate(locale, variant, { count });
      expect(translate(locale, "members.count", { count })).toBe(expected);
    }
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
