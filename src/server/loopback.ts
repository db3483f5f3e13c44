/** The names tests and local development serve on: plain http is allowed to them where it is refused elsewhere. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}
