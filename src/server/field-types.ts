import type { ApiEndpoints } from "../contract/endpoints/api-names.js";
import type { ListedSession, Session, User } from "../contract/models.js";
import type { AdditionalFieldType } from "./additional-field-options.js";
import type { ApiFunction, ApiReply, HeadersSlot, ServerApi } from "./api-types.js";
import type { RequestHeaders } from "./http/header-session.js";

/**
 * The app's own fields (options `user.additionalFields`, `session.additionalFields`) as types of
 * `auth.api` and `auth.$Infer`, read from the options createAuth is given. One level deep on
 * purpose: a field's `type`, `required`, `defaultValue`, `input` and `returned` map to a value type
 * and an optional or required key, and nothing else is inferred (STYLE.md: no deep inference).
 */

/** One field as the options spell it; readonly, so options written `as const` fit. */
export interface FieldDefinition {
  readonly type: AdditionalFieldType;
  readonly required?: boolean;
  readonly defaultValue?: string | number | boolean | null;
  readonly input?: boolean;
  readonly returned?: boolean;
}

export type FieldDefinitions = { readonly [name: string]: FieldDefinition };

/** Options without fields. */
export type NoFields = Readonly<Record<never, FieldDefinition>>;

interface ValueTypes {
  string: string;
  number: number;
  boolean: boolean;
  date: Date;
}

/** Options typed only as a record (read from a file), or `Auth` without type arguments: no field the compiler can know. */
type Known<F, T> = string extends keyof F ? object : T;

/** A reply's fields: all but `returned: false`, null for a row written before the field existed. */
export type ReturnedFields<F extends FieldDefinitions> = Known<
  F,
  { [K in keyof F as F[K] extends { returned: false } ? never : K]: ValueTypes[F[K]["type"]] | null }
>;

/** A value a body may send: a date as a Date or ISO 8601 text; null clears a field that is not required. */
type SentValue<D extends FieldDefinition> =
  | (D["type"] extends "date" ? Date | string : ValueTypes[D["type"]])
  | (D extends { required: true } ? never : null);

/** Keys a creating body must carry: required and without a default. */
type MustSend<F extends FieldDefinitions> = {
  [K in keyof F]: F[K] extends { required: true } ? (F[K] extends { defaultValue: unknown } ? never : K) : never;
}[keyof F];

/** A creating body's fields (the server may set `input: false` ones too). */
export type CreateFields<F extends FieldDefinitions> = Known<
  F,
  { [K in MustSend<F>]: SentValue<F[K]> } & { [K in Exclude<keyof F, MustSend<F>>]?: SentValue<F[K]> }
>;

/**
 * An updating body's fields; those that are `Refused` (`input: false` on a route that takes a
 * client's fields only) may not be sent at all, since the body's schema lets other keys through.
 */
export type UpdateFields<F extends FieldDefinitions, Refused = never> = Known<
  F,
  { [K in keyof F]?: F[K] extends Refused ? never : SentValue<F[K]> }
>;

/** `{ user }` replies with the user's fields; a reply without a user (two-factor redirect) as it is. */
type WithUserFields<R, U> = R extends { user: User } ? Omit<R, "user"> & { user: R["user"] & U } : R;

/** What get-session answers, with the user's and session's returned fields: `typeof auth.$Infer.Session`. */
export type SessionWithFields<UserFields, SessionFields> = {
  session: Session & SessionFields;
  user: User & UserFields;
};

/**
 * The calls whose bodies or replies carry user or session fields (docs/configuration.md,
 * "Additional fields"), over the value types rather than the definitions, one parameter per
 * direction: so an Auth whose fields are all optional is still an Auth.
 */
export interface FieldTypedCalls<UserReply, SessionReply, UserCreate, UserUpdate, SessionUpdate> {
  getSession: ApiFunction<
    ApiEndpoints["getSession"],
    { headers: RequestHeaders },
    SessionWithFields<UserReply, SessionReply> | null
  >;
  signUpEmail: ApiFunction<
    ApiEndpoints["signUpEmail"],
    HeadersSlot<ApiEndpoints["signUpEmail"]>,
    WithUserFields<ApiReply<ApiEndpoints["signUpEmail"]>, UserReply>,
    UserCreate
  >;
  signInEmail: ApiFunction<
    ApiEndpoints["signInEmail"],
    HeadersSlot<ApiEndpoints["signInEmail"]>,
    WithUserFields<ApiReply<ApiEndpoints["signInEmail"]>, UserReply>
  >;
  updateUser: ApiFunction<
    ApiEndpoints["updateUser"],
    HeadersSlot<ApiEndpoints["updateUser"]>,
    ApiReply<ApiEndpoints["updateUser"]>,
    UserUpdate
  >;
  updateSession: ApiFunction<
    ApiEndpoints["updateSession"],
    HeadersSlot<ApiEndpoints["updateSession"]>,
    { session: Session & SessionReply },
    SessionUpdate
  >;
  listSessions: ApiFunction<
    ApiEndpoints["listSessions"],
    HeadersSlot<ApiEndpoints["listSessions"]>,
    (ListedSession & SessionReply)[]
  >;
}

type TypedNames = keyof FieldTypedCalls<unknown, unknown, unknown, unknown, unknown>;

/** `auth.api` for options with these fields (update-session takes a client's fields only, in process too). */
export type FieldTypedApi<U extends FieldDefinitions, S extends FieldDefinitions> = Omit<ServerApi, TypedNames> &
  FieldTypedCalls<
    ReturnedFields<U>,
    ReturnedFields<S>,
    CreateFields<U>,
    UpdateFields<U>,
    UpdateFields<S, { input: false }>
  >;
