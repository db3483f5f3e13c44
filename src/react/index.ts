export { sameOriginPath } from "../client/safe-redirect.js";
// Components: see components.ts.
export * from "./components.js";
export { GoogleOneTap, type GoogleOneTapProps } from "./one-tap.js";
export {
  AuthProvider,
  type StoreResult,
  useActiveMember,
  useActiveOrganization,
  useAuthClient,
  useListOrganizations,
  useSession,
} from "./provider.js";
