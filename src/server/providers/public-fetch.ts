import { lookup } from "node:dns";
import { createRequire } from "node:module";
import { isIP, type LookupFunction } from "node:net";
import type ipaddrType from "ipaddr.js";
import type * as Undici from "undici";

/**
 * A fetch that reaches public addresses only, for URLs a tenant names (an SSO connection's issuer):
 * without it an organization owner could make the server read internal hosts (server-side request
 * forgery). The check runs where the connection is made, on the addresses actually dialled, so a
 * name that resolves to a public address when checked and a private one when used (DNS rebinding)
 * is refused too. Redirects are never followed: a redirect could point at an address literal.
 */
/** The fetch oauth4webapi and jose call: a URL string and their own init object. */
export type Fetch = (url: string, init: object) => Promise<Response>;

export class PrivateAddressError extends Error {
  constructor(readonly address: string) {
    super(`refused to connect to a non-public address (${address})`);
    this.name = "PrivateAddressError";
  }
}

// Loaded at the first address checked (an outbound request, a webhook's receiver URL): an instance
// that makes none does without its memory (bench/README.md, lazy loads).
let ipaddrModule: typeof ipaddrType | undefined;

/** Only globally routable unicast addresses; loopback, private, link-local, CGNAT, multicast and the rest are refused. */
export function isPublicAddress(address: string): boolean {
  ipaddrModule ??= createRequire(import.meta.url)("ipaddr.js") as typeof ipaddrType;
  const ipaddr = ipaddrModule;
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddrType.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddrType.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new PrivateAddressError(refused.address), "", 0);
    if (options.all) return (callback as (e: null, a: typeof addresses) => void)(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new Error(`no address for ${hostname}`), "", 0);
    callback(null, first.address, first.family);
  });
};

/**
 * undici, loaded at the first outbound request (an SSO issuer, a social provider, a webhook): an
 * instance that makes none does without its memory (bench/README.md, lazy loads).
 */
let undiciModule: Promise<typeof Undici> | undefined;
let agent: Undici.Agent | null = null;

export const publicFetch: Fetch = async (input, init) => {
  const url = new URL(input);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // An address literal is dialled without a lookup, so it is checked here.
  if (isIP(host) && !isPublicAddress(host)) throw new PrivateAddressError(host);
  undiciModule ??= import("undici");
  const { Agent, fetch: undiciFetch } = await undiciModule;
  agent ??= new Agent({ connect: { lookup: publicOnlyLookup } });
  const response = await undiciFetch(url, {
    ...(init as Parameters<typeof Undici.fetch>[1]),
    redirect: "manual",
    dispatcher: agent,
  });
  return response as unknown as Response;
};
