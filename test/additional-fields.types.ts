/**
 * Issue 49, part 5: the app's own fields (user.additionalFields, session.additionalFields) reach
 * auth.api's and auth.$Infer's types, from options written `as const` (docs/configuration.md) or
 * inline. Checked by tsc (npx tsc --noEmit): a wrong use below must not compile, and an unused
 * @ts-expect-error fails the check.
 */
import { expectTypeOf } from "vitest";
import { type Auth, createAuth } from "../src/server/index.js";

const options = {
  trustedOrigins: ["https://app.example.com"],
  user: {
    additionalFields: {
      company: { type: "string", required: true },
      newsletter: { type: "boolean", defaultValue: false },
      plan: { type: "string", defaultValue: "free", input: false },
      seats: { type: "number" },
      birthday: { type: "date" },
      riskScore: { type: "number", input: false, returned: false },
    },
  },
  session: {
    additionalFields: {
      device: { type: "string", defaultValue: "web" },
      risk: { type: "number", input: false },
    },
  },
} as const;

declare const auth: Auth<typeof options.user.additionalFields, typeof options.session.additionalFields>;
const headers = new Headers();
const where = { baseURL: "https://auth.example.com", secret: "s", database: "sqlite::memory:" };

export async function asConstOptionsFitCreateAuth() {
  const made = await createAuth({ ...where, options });
  expectTypeOf(made).toEqualTypeOf<typeof auth>();
}

export async function inlineOptionsNeedNoAsConst() {
  const made = await createAuth({ ...where, options: { user: { additionalFields: { plan: { type: "string" } } } } });
  const session = await made.api.getSession({ headers });
  expectTypeOf(session!.user.plan).toEqualTypeOf<string | null>();
  // @ts-expect-error a misspelt option is still caught
  void createAuth({ ...where, options: { emailAndPasword: { enabled: true } } });
  // @ts-expect-error a field's type is one of the four
  void createAuth({ ...where, options: { user: { additionalFields: { a: { type: "int" } } } } });
}

export async function repliesCarryTheFields() {
  const session = await auth.api.getSession({ headers });
  if (!session) return;
  expectTypeOf(session.user.plan).toEqualTypeOf<string | null>();
  expectTypeOf(session.user.company).toEqualTypeOf<string | null>();
  expectTypeOf(session.user.newsletter).toEqualTypeOf<boolean | null>();
  expectTypeOf(session.user.seats).toEqualTypeOf<number | null>();
  expectTypeOf(session.user.birthday).toEqualTypeOf<Date | null>();
  expectTypeOf(session.user.email).toEqualTypeOf<string>();
  expectTypeOf(session.session.device).toEqualTypeOf<string | null>();
  // @ts-expect-error returned: false is never in a reply
  void session.user.riskScore;
  expectTypeOf(session).toEqualTypeOf<typeof auth.$Infer.Session>();

  const signedUp = await auth.api.signUpEmail({
    body: { name: "a", email: "a@example.com", password: "p", company: "Acme", plan: "pro", birthday: new Date() },
  });
  expectTypeOf(signedUp.user.plan).toEqualTypeOf<string | null>();
  const signedIn = await auth.api.signInEmail({ body: { email: "a@example.com", password: "p" } });
  if (!("twoFactorRedirect" in signedIn)) expectTypeOf(signedIn.user.company).toEqualTypeOf<string | null>();
  const listed = await auth.api.listSessions({ headers });
  expectTypeOf(listed[0]!.device).toEqualTypeOf<string | null>();
  const updated = await auth.api.updateSession({ headers, body: { device: "tablet" } });
  expectTypeOf(updated.session.device).toEqualTypeOf<string | null>();
}

export async function bodiesTakeTheFields() {
  const account = { name: "a", email: "a@example.com", password: "p" };
  // @ts-expect-error company is required and has no default
  await auth.api.signUpEmail({ body: account });
  // @ts-expect-error a field's value has its type
  await auth.api.signUpEmail({ body: { ...account, company: "Acme", seats: "many" } });
  // @ts-expect-error a required field cannot be null
  await auth.api.signUpEmail({ body: { ...account, company: null } });
  await auth.api.signUpEmail({ body: { ...account, company: "Acme", seats: null, birthday: "1990-05-01" } });
  await auth.api.updateUser({ headers, body: { newsletter: true, plan: "pro" } });
  // @ts-expect-error a field's value has its type
  await auth.api.updateUser({ headers, body: { newsletter: "yes" } });
  // @ts-expect-error update-session takes a client's fields only
  await auth.api.updateSession({ headers, body: { risk: 1 } });
}

export function anAuthWithFieldsIsAnAuth(): Auth {
  // As an app passes its auth to a helper, or a promise of it to toNodeHandler.
  return auth;
}

export async function optionsWithoutFieldsKeepThePlainTypes(plain: Auth) {
  const session = await plain.api.getSession({ headers });
  // @ts-expect-error no field was configured
  void session?.user.plan;
  await plain.api.signUpEmail({ body: { name: "a", email: "a@example.com", password: "p" } });
}
