export { sameOriginPath } from "../client/safe-redirect.js";
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
