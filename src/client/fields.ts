import type { FullOrganization, Organization } from "../contract/api-models.js";
import type { ListedSession, Session, User } from "../contract/models.js";
import type { QueryStore } from "./query-store.js";
import type { FetchOptions, Result } from "./request.js";
import type { AccountCalls, OrganizationCalls } from "./types.js";

/**
 * The server's own fields (options `user.additionalFields`, ...) as the client types them, declared
 * by their value types: `createAuthClient<{ user: { company: string | null } }>()`. Only the types
 * change; the calls are the same.
 */
export interface AdditionalFieldTypes {
  user?: object;
  session?: object;
  organization?: object;
}

type FieldValue<D> = D extends { type: "string" }
  ? string
  : D extends { type: "number" }
    ? number
    : D extends { type: "boolean" }
      ? boolean
      : D extends { type: "date" }
        ? Date
        : unknown;

/** A reply's values: a field of a row written before it existed is null. */
type ValuesOf<F> = { [K in keyof F]: FieldValue<F[K]> | null };

type FieldsOf<O, Table extends string> = O extends { [T in Table]?: { additionalFields?: infer F } }
  ? F extends object
    ? ValuesOf<F>
    : object
  : object;

/**
 * The same types read from the server's options object (better-auth's inferAdditionalFields):
 * `createAuthClient<InferAdditionalFields<typeof options>>()`, with `options` declared `as const`.
 */
export type InferAdditionalFields<O> = {
  user: FieldsOf<O, "user">;
  session: FieldsOf<O, "session">;
  organization: FieldsOf<O, "organization">;
};

type Part<F extends AdditionalFieldTypes, K extends keyof AdditionalFieldTypes> = F[K] extends object ? F[K] : object;

type ArgOf<C> = C extends (arg: infer A, options?: FetchOptions) => unknown ? A : never;
type Send<A, R> = (arg: A, options?: FetchOptions) => Promise<Result<R>>;
type MaybeSend<A, R> = (arg?: A, options?: FetchOptions) => Promise<Result<R>>;

/** The calls and stores whose users, sessions or organizations carry the declared fields. */
export interface FieldTypedCalls<U, S, O> {
  signUp: Omit<AccountCalls["signUp"], "email"> & {
    email: Send<ArgOf<AccountCalls["signUp"]["email"]> & Partial<U>, { token: string | null; user: User & U }>;
  };
  getSession: MaybeSend<ArgOf<AccountCalls["getSession"]>, { session: Session & S; user: User & U } | null>;
  updateUser: Send<ArgOf<AccountCalls["updateUser"]> & Partial<U>, { status: boolean }>;
  updateSession: Send<Partial<S>, { session: Session & S }>;
  listSessions: MaybeSend<ArgOf<AccountCalls["listSessions"]>, (ListedSession & S)[]>;
  organization: Omit<OrganizationCalls, "create" | "update" | "list" | "getFullOrganization"> & {
    create: Send<
      ArgOf<OrganizationCalls["create"]> & Partial<O>,
      Awaited<ReturnType<OrganizationCalls["create"]>>["data"] & O
    >;
    update: Send<
      Omit<ArgOf<OrganizationCalls["update"]>, "data"> & {
        data: ArgOf<OrganizationCalls["update"]>["data"] & Partial<O>;
      },
      Organization & O
    >;
    list: MaybeSend<ArgOf<OrganizationCalls["list"]>, (Organization & O)[]>;
    getFullOrganization: MaybeSend<ArgOf<OrganizationCalls["getFullOrganization"]>, (FullOrganization & O) | null>;
  };
}

/** The stores whose values carry the declared fields. */
export interface FieldTypedStores<U, S, O> {
  session: QueryStore<{ session: Session & S; user: User & U } | null>;
  activeOrganization: QueryStore<(FullOrganization & O) | null>;
  listOrganizations: QueryStore<(Organization & O)[]>;
}

/** A client whose replies and arguments carry the declared fields (the plain client when none). */
export type WithFieldTypes<Client extends { $store: object }, F extends AdditionalFieldTypes> = keyof F extends never
  ? Client
  : Omit<Client, keyof FieldTypedCalls<unknown, unknown, unknown> | "$store"> &
      FieldTypedCalls<Part<F, "user">, Part<F, "session">, Part<F, "organization">> & {
        readonly $store: Omit<Client["$store"], keyof FieldTypedStores<unknown, unknown, unknown>> &
          FieldTypedStores<Part<F, "user">, Part<F, "session">, Part<F, "organization">>;
      };
