import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress, PrivateAddressError, publicFetch } from "./public-fetch.js";

describe("isPublicAddress", () => {
  it("takes globally routable unicast addresses only", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    const refused = [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "not an address",
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
  });
});

describe("publicFetch", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_, res) => res.end("internal"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses a name that resolves to loopback, where a plain fetch gets through", async () => {
    expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe("internal");
    const error = await publicFetch(`http://localhost:${port}/`, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).cause).toBeInstanceOf(PrivateAddressError);
  });

  it("refuses an address literal without a lookup", async () => {
    await expect(publicFetch(`http://127.0.0.1:${port}/`, {})).rejects.toBeInstanceOf(PrivateAddressError);
  });
});
