import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useT } from "../lib/i18n.js";
import { AuthLayout } from "./shell.js";
import { Button } from "./ui.js";

/**
 * Vite says when a page's module (or a stylesheet it needs) fails to load: after a deployment the
 * previous build's chunks are gone, and a tab opened before it asks for them on its next first visit
 * to an area.
 */
let moduleLoadFailed = false;
globalThis.addEventListener?.("vite:preloadError", () => {
  moduleLoadFailed = true;
});

const reloadKey = "gatehouse.reloadedFor";
/** One reload per address within 10 s, so a module that is really missing cannot loop the page. */
const RELOAD_WINDOW_MS = 10_000;

function reloadOnce(): void {
  const here = globalThis.location.href;
  try {
    const last = JSON.parse(globalThis.sessionStorage.getItem(reloadKey) ?? "null") as {
      href: string;
      at: number;
    } | null;
    if (last && last.href === here && Date.now() - last.at < RELOAD_WINDOW_MS) return;
    globalThis.sessionStorage.setItem(reloadKey, JSON.stringify({ href: here, at: Date.now() }));
  } catch {
    // No session storage (a private window may refuse it): no way to tell a loop, so no reload.
    return;
  }
  globalThis.location.reload();
}

/**
 * What the router shows when a page cannot be: an address the application has no page for says so;
 * a module from an older build reloads the page once, at the address it was going to (the new build's
 * modules then load); anything else, or a second failure, says so and offers a reload.
 */
export function PageError() {
  const t = useT();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (moduleLoadFailed) {
      moduleLoadFailed = false;
      reloadOnce();
    }
  }, []);
  if (notFound) {
    return (
      <AuthLayout titleKey="details.pageNotFound.title">
        <p data-testid="page-not-found">{t("details.pageNotFound.text")}</p>
        <Link to="/">{t("details.pageNotFound.home")}</Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout titleKey="details.pageError.title">
      <p data-testid="page-error">{t("details.pageError.text")}</p>
      <Button type="button" onClick={() => globalThis.location.reload()}>
        {t("details.pageError.reload")}
      </Button>
    </AuthLayout>
  );
}
