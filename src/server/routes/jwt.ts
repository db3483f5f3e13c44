import { serviceEndpoints } from "../../contract/endpoints/index.js";
import type { Route } from "../http/route.js";
import { issueSessionToken, publicKeySet } from "../services/jwt.js";

/** Routed only while jwt is on (the endpoints' feature switch). */
export function jwtRoutes(route: Route): void {
  route(serviceEndpoints.jwks, (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return publicKeySet(c.get("auth"));
  });

  route(serviceEndpoints.token, async (c, { caller }) => {
    c.header("Cache-Control", "no-store");
    return { token: await issueSessionToken(c.get("auth"), caller) };
  });
}
