import { useEffect, useRef } from "react";
import type { AuthClientError } from "../client/index.js";
import { sameOriginPath } from "../client/safe-redirect.js";
import { backoffDelayMs, retryWithBackoff } from "./backoff.js";
import { useAuthClient } from "./provider.js";

const GOOGLE_SCRIPT = "https://accounts.google.com/gsi/client";
const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 1000;

interface PromptMoment {
  isNotDisplayed?(): boolean;
  isSkippedMoment?(): boolean;
  getNotDisplayedReason?(): string;
  getSkippedReason?(): string;
}
interface GoogleIdentity {
  initialize(config: Record<string, unknown>): void;
  prompt(listener?: (moment: PromptMoment) => void): void;
  cancel(): void;
}
declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdentity } };
  }
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error(`could not load ${src}`));
    };
    document.head.appendChild(script);
  });
}

export interface GoogleOneTapProps {
  clientId: string;
  /** Where the browser goes after a successful sign-in (default `/`). */
  callbackURL?: string;
  onError?: (error: AuthClientError | Error) => void;
  /** Script URL (tests point it at a local copy). */
  scriptSrc?: string;
}

/**
 * Google one-tap: loads Google's script (up to 5 attempts, 1 s, 2 s, 4 s, ... apart), shows the
 * prompt (shown again with the same backoff when Google skips it for a transient reason), and posts
 * the credential to /one-tap/callback. Renders nothing itself.
 *
 * @example
 * <AuthProvider client={client}>
 *   <GoogleOneTap clientId="1234-abc.apps.googleusercontent.com" callbackURL="/dashboard" />
 * </AuthProvider>
 */
export function GoogleOneTap({ clientId, callbackURL = "/", onError, scriptSrc = GOOGLE_SCRIPT }: GoogleOneTapProps) {
  const client = useAuthClient();
  const latest = useRef({ callbackURL, onError });
  latest.current = { callbackURL, onError };

  useEffect(() => {
    let cancelled = false;
    let promptAttempt = 0;
    const prompt = (id: GoogleIdentity) => {
      id.prompt((moment) => {
        // A user who closed the prompt or has no Google session is left alone; transient misses retry.
        const notShown =
          moment.isNotDisplayed?.() === true && moment.getNotDisplayedReason?.() !== "opt_out_or_no_session";
        const autoCancelled = moment.isSkippedMoment?.() === true && moment.getSkippedReason?.() === "auto_cancel";
        if (!(notShown || autoCancelled) || cancelled || promptAttempt >= MAX_ATTEMPTS - 1) return;
        setTimeout(() => !cancelled && prompt(id), backoffDelayMs(promptAttempt++, BASE_DELAY_MS));
      });
    };
    retryWithBackoff(
      async () => {
        if (!window.google?.accounts?.id) await loadScript(scriptSrc);
        const id = window.google?.accounts?.id;
        if (!id) throw new Error("Google Identity Services did not start");
        return id;
      },
      { maxAttempts: MAX_ATTEMPTS, baseDelayMs: BASE_DELAY_MS },
    )
      .then((id) => {
        if (cancelled) return;
        id.initialize({
          client_id: clientId,
          auto_select: false,
          use_fedcm_for_prompt: true,
          callback: async ({ credential }: { credential: string }) => {
            const { error } = await client.oneTap.callback({ idToken: credential });
            if (error) return latest.current.onError?.(error);
            window.location.href = sameOriginPath(latest.current.callbackURL, window.location.origin);
          },
        });
        prompt(id);
      })
      .catch((error: Error) => !cancelled && latest.current.onError?.(error));
    return () => {
      cancelled = true;
      window.google?.accounts?.id?.cancel();
    };
  }, [client, clientId, scriptSrc]);

  return null;
}
