import type { Context } from "hono";
import type { AuthEnv } from "./env.js";

/**
 * Marks a request as an in-process `auth.api` call: it rides in the Hono env, which only code in
 * this process can pass, never a header or anything else an HTTP client sends.
 */
export const SERVER_CALL = Symbol("gatehouse.serverCall");

export interface ServerCallEnv {
  readonly [SERVER_CALL]: true;
}

export const serverCallEnv: ServerCallEnv = Object.freeze({ [SERVER_CALL]: true as const });

export function isServerCall(c: Context<AuthEnv>): boolean {
  return (c.env as Partial<ServerCallEnv> | undefined)?.[SERVER_CALL] === true;
}

/** Who sets the app's own fields: a server call may set input:false ones, a client may not. */
export function fieldSource(c: Context<AuthEnv>): "server" | "client" {
  return isServerCall(c) ? "server" : "client";
}
