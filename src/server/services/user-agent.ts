/**
 * Browser and operating system from a User-Agent header, for people to recognise their devices
 * (docs/security-activity.md). Deliberately small: the common browsers by their own tokens, checked
 * in the order that tells them apart (Edge and Opera also say Chrome; Chrome also says Safari), and
 * the major version only. Anything else reads as null ("Unknown browser"): this names a device for
 * a person, it decides nothing.
 */
const BROWSERS: readonly [name: string, pattern: RegExp][] = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ["Opera", /\b(?:OPR|OPT)\/(\d+)/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /\b(?:Chrome|CriOS)\/(\d+)/],
  ["Safari", /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\w+)? Safari\//],
];

const SYSTEMS: readonly [name: string, pattern: RegExp][] = [
  ["iOS", /\b(?:iPhone|iPad|iPod)\b/],
  ["Android", /\bAndroid\b/],
  ["Windows", /\bWindows\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["Linux", /\bLinux\b/],
];

export interface DeviceName {
  browser: string | null;
  os: string | null;
}

export function describeUserAgent(userAgent: string | null | undefined): DeviceName {
  if (!userAgent) return { browser: null, os: null };
  const ua = userAgent.slice(0, 512);
  let browser: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const found = pattern.exec(ua);
    if (found) {
      browser = `${name} ${found[1]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? null;
  return { browser, os };
}
