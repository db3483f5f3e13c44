import { sameOriginPath } from "../../client/safe-redirect.js";

/** One client call for a form: the components' hook, so the app and the components hold one. */
export { useCall as useSubmit } from "../../react/use-call.js";

/** Only same-site paths are followed after sign-in (`?redirectTo=/accept-invitation/...`). */
export function safeNextPath(value: string | null, fallback = "/"): string {
  return sameOriginPath(value, window.location.origin, fallback);
}
