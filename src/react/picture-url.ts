/** Hosts that name this computer: a picture served from here may use plain http. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

/**
 * What the profile form takes as a picture: an https URL, or http on loopback (a picture served in
 * development). The server takes more (any http, data:image/), but a person typing an address should
 * not be led into mixed content or an inline blob.
 */
export function isPictureUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === "https:") return url.hostname !== "";
  return url.protocol === "http:" && isLoopback(url.hostname);
}
