import { type AuthOptions, ConfigError } from "./options.js";
import { isSafeRedirectTarget } from "./trusted-origins.js";

/** The pages of `options.pages` (options.ts has their defaults and what each URL carries). */
export type PageName = keyof AuthOptions["pages"];

/** The values a page's URL carries: token, callbackURL, id, error... */
export type PageParams = Readonly<Record<string, string | undefined>>;

/** From code only: builds a page's URL (a path on BASE_URL or an absolute URL on a trusted origin). */
export type PageURLBuilder = (params: PageParams) => string;

/** One page option: a path or URL (JSON or code; `:name` is filled from the params, the rest go in the query), or a builder. */
export type PageOption = string | PageURLBuilder;

/** Absolute URL of each page, built from its params. */
export type AppPages = Readonly<Record<PageName, (params: PageParams) => string>>;

const ACCEPTS = 'must be a path on BASE_URL (e.g. "/reset") or an absolute URL on a trusted origin';

/** Checks every page option once, at start-up, and returns the builders services call. */
export function resolvePages(
  pages: AuthOptions["pages"],
  context: { baseURL: string; isTrustedOrigin: (origin: string) => boolean; source?: string },
): AppPages {
  const source = context.source ?? "options";
  const build = (name: PageName): ((params: PageParams) => string) => {
    const option: PageOption = pages[name];
    const checked = (target: string, described: string) => {
      if (!isSafeRedirectTarget(target, context.isTrustedOrigin)) {
        throw new ConfigError(`${source}: option "pages.${name}": ${ACCEPTS} (${described} "${target}")`);
      }
      return new URL(target, `${context.baseURL}/`).toString();
    };
    if (typeof option === "function") {
      // A builder runs per mail: what it returns is checked each time, since no start-up check can.
      return (params) => checked(option(params), "the function returned");
    }
    checked(option, "got");
    // Params are encoded into the checked template: they cannot move it to another origin.
    return (params) => new URL(fillTemplate(option, params), `${context.baseURL}/`).toString();
  };
  return Object.freeze({
    resetPassword: build("resetPassword"),
    magicLink: build("magicLink"),
    verifyEmail: build("verifyEmail"),
    acceptInvitation: build("acceptInvitation"),
    secureAccount: build("secureAccount"),
    error: build("error"),
  });
}

/** `:name` segments take their param (encoded); the other params are added to the query, in order. */
function fillTemplate(template: string, params: PageParams): string {
  const used = new Set<string>();
  const filled = template.replace(/:([A-Za-z]+)/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    used.add(name);
    return encodeURIComponent(value);
  });
  const [withoutHash = "", hash] = filled.split("#", 2);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && !used.has(name)) query.append(name, value);
  }
  const extra = query.toString();
  if (!extra) return filled;
  const joined = `${withoutHash}${withoutHash.includes("?") ? "&" : "?"}${extra}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}
