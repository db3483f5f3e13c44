/**
 * What `npm start` uses when AUTH_CONFIG is unset: every feature the application shows turned on,
 * so a newcomer sees the whole product. An AUTH_CONFIG file replaces this entirely.
 */
export const demoOptions = {
  user: { changeEmail: { enabled: true }, deleteUser: { enabled: true } },
  organization: { teams: { enabled: true } },
  twoFactor: { enabled: true },
  magicLink: { enabled: true },
  emailOTP: { enabled: true },
  passkey: { enabled: true },
};
