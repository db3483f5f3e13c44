import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useT } from "../lib/i18n.js";
import { AuthLayout } from "./shell.js";
import { Button, PageLoading } from "./ui.js";

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

interface ReloadRecord {
  href: string;
  at: number;
}

/** Whether this address may be reloaded now: session storage records no reload of it in the last 10 s. */
function mayReload(here: string): boolean {
  try {
    const last = JSON.parse(globalThis.sessionStorage.getItem(reloadKey) ?? "null") as ReloadRecord | null;
    return !(last && last.href === here && Date.now() - last.at < RELOAD_WINDOW_MS);
  } catch {
    // No session storage (a private window may refuse it): no way to tell a loop, so no reload.
    return false;
  }
}

/**
 * What the router shows when a page cannot be: an address the application has no page for says so;
 * a module from an older build reloads the page once, at the address it was going to (the new build's
 * modules then load), showing the loading line meanwhile; anything else, or a second failure, says so
 * and offers a reload.
 */
export function PageError() {
  const t = useT();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const reloading = moduleLoadFailed && mayReload(globalThis.location.href);
  useEffect(() => {
    if (!reloading) return;
    moduleLoadFailed = false;
    const here = globalThis.location.href;
    // Checked again: under StrictMode this runs twice, and the second must not reload again.
    if (!mayReload(here)) return;
    globalThis.sessionStorage.setItem(reloadKey, JSON.stringify({ href: here, at: Date.now() } satisfies ReloadRecord));
    globalThis.location.reload();
  }, [reloading]);
  if (reloading) return <PageLoading />;
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
