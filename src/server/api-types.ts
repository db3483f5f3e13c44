import type { z } from "zod";
import type { ApiEndpoints } from "../contract/endpoints/api-names.js";
import type { Endpoint } from "../contract/endpoints/define.js";
import type { Member } from "../contract/models.js";
import type { AddMemberInput } from "../contract/organization.js";
import type { RequestHeaders } from "./http/header-session.js";

/** `:name` parts of a path. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A query field the URL carries as text may be given as a number or boolean (false leaves it out). */
type QueryFields<T> = { [K in keyof T]: string extends T[K] ? T[K] | number | boolean : T[K] };

/** Whether every field of T may be left out (`{}` is the empty object here, not "any value"). */
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` is the test for "no required field"
type AllOptional<T> = {} extends T ? true : false;

/** A slot the call must fill when its schema requires a field, and may leave out otherwise. */
type Slot<K extends string, T> = AllOptional<T> extends true ? { [P in K]?: T } : { [P in K]: T };

/** `Fields`: the app's own fields a body may carry beside the schema's (field-types.ts). */
type BodySlot<E, Fields> = E extends { body: infer S extends z.ZodType }
  ? Slot<"body", z.input<S> & Fields>
  : { body?: undefined };
type QuerySlot<E> = E extends { query: infer S extends z.ZodType }
  ? Slot<"query", QueryFields<z.input<S>>>
  : { query?: undefined };
type ParamsSlot<E extends Endpoint> = [ParamNames<E["path"]>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<E["path"]>, string> };

/** A call that acts for the signed-in caller needs their headers; the editor says so. */
export type HeadersSlot<E> = E extends { policy: { session: "required" | "fresh" } }
  ? { headers: RequestHeaders }
  : { headers?: RequestHeaders };

export interface CallOptions {
  /**
   * The caller's request headers (`request.headers`, any HeadersInit, or a read-only view with
   * `get`): their Cookie is the session the call acts for; User-Agent, Accept-Language and the
   * configured proxy IP headers count as they do over HTTP.
   */
  headers?: RequestHeaders;
  /** Answer the route's Response itself, error statuses included (nothing is thrown). */
  asResponse?: boolean;
  /** Answer `{ headers, response }`: the reply with the route's response headers (Set-Cookie). */
  returnHeaders?: boolean;
}

/** What a call of endpoint E takes: better-auth's `{ body, query, params, headers }` shape. */
export type ApiInput<E extends Endpoint, H = HeadersSlot<E>, Fields = object> = BodySlot<E, Fields> &
  QuerySlot<E> &
  ParamsSlot<E> &
  H &
  Omit<CallOptions, "headers">;

/** What a call answers: the reply schema's output (Dates as Date), or the Response of a page or redirect. */
export type ApiReply<E extends Endpoint> = E extends { reply: infer R extends z.ZodType }
  ? E extends { answers: "json-or-redirect" }
    ? z.output<R> | Response
    : z.output<R>
  : Response;

type Args<I> = AllOptional<I> extends true ? [input?: I] : [input: I];

/** One `auth.api` call, typed from its endpoint's schemas. */
export interface ApiFunction<E extends Endpoint, H = HeadersSlot<E>, R = ApiReply<E>, Fields = object> {
  (input: ApiInput<E, H, Fields> & { asResponse: true }): Promise<Response>;
  (
    input: ApiInput<E, H, Fields> & { returnHeaders: true; asResponse?: false },
  ): Promise<{ headers: Headers; response: R }>;
  (...args: Args<ApiInput<E, H, Fields> & { asResponse?: false; returnHeaders?: false }>): Promise<R>;
}

/**
 * A call for every endpoint of the table, by its better-auth name (contract/endpoints/api-names.ts).
 * getSession answers for the headers it is given, so they are required; createOrganization without
 * headers is the server acting for `body.userId`, createSetupLink for `body.organizationId`.
 */
export type EndpointApi = {
  [N in Exclude<keyof ApiEndpoints, "getSession" | "createOrganization" | "createSetupLink">]: ApiFunction<
    ApiEndpoints[N]
  >;
} & {
  getSession: ApiFunction<ApiEndpoints["getSession"], { headers: RequestHeaders }>;
  createOrganization: ApiFunction<ApiEndpoints["createOrganization"], { headers?: RequestHeaders }>;
  createSetupLink: ApiFunction<ApiEndpoints["createSetupLink"], { headers?: RequestHeaders }>;
};

/** Calls that have no HTTP route: the server acts itself, for the user the body names. */
export interface ServerOnlyApi {
  /** Adds an existing user to an organization (WIRE 8.2: 404 over HTTP). */
  addMember(input: { body: AddMemberInput }): Promise<Member>;
  /** Gives a user without a credential password one; USER_ALREADY_HAS_PASSWORD when they have one. */
  setPassword(input: { body: { userId: string; newPassword: string } }): Promise<{ status: true }>;
}

export type ServerApi = EndpointApi & ServerOnlyApi;
