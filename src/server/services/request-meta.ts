import type { Locale } from "../../i18n/index.js";

/** What a sign-in knows of the request that makes it (sessions.ts, known-devices.ts). */
export interface RequestMeta {
  ipAddress: string | null;
  userAgent: string | null;
  /** The browser's "trust this device" token (from its signed cookie), if it holds one. */
  trustedDeviceToken?: string | null;
  /** The language the request asked for (Accept-Language): mail it causes is written in it. */
  locale: Locale;
  /** The browser's device id (its signed `device` cookie; securityActivity only): new-device mail. */
  deviceId?: string | null;
}
