// oidc-provider ships no type declarations; tests use it through test/helpers/oidc.ts only.
declare module "oidc-provider";
