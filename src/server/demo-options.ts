/**
 * What `npm start` uses when AUTH_CONFIG is unset: every feature the application shows turned on,
 * so a newcomer sees the whole product. With an AUTH_CONFIG file these do not apply: the file is
 * merged over the documented defaults (docs/configuration.md), and the start-up summary lists what is on.
 */
export const demoOptions = {
  user: { changeEmail: { enabled: true }, deleteUser: { enabled: true } },
  organization: { teams: { enabled: true } },
  twoFactor: { enabled: true },
  magicLink: { enabled: true },
  emailOTP: { enabled: true },
  passkey: { enabled: true },
};
