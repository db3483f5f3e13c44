import { z } from "zod";
import { timestamp } from "./models.js";

/** Passkeys (WebAuthn) on better-auth's passkey plugin wire. */
export const passkeyModel = z.object({
  id: z.string(),
  name: z.string().nullable(),
  userId: z.string(),
  credentialID: z.string(),
  publicKey: z.string(),
  counter: z.number().int(),
  deviceType: z.string(),
  backedUp: z.boolean(),
  transports: z.string().nullable(),
  aaguid: z.string().nullable(),
  createdAt: timestamp,
});
export type Passkey = z.output<typeof passkeyModel>;

export const registerOptionsQuery = z.object({
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  name: z.string().max(256).optional(),
});

/** A browser's WebAuthn response in its JSON form (as @simplewebauthn/browser or src/react/webauthn.ts send it); checked by the verifier. */
const credentialResponse = z.looseObject({ id: z.string().min(1).max(1024), type: z.string() });

export const verifyRegistrationBody = z.object({
  response: credentialResponse,
  name: z.string().trim().max(100).optional(),
});
export const verifyAuthenticationBody = z.object({ response: credentialResponse });
export const passkeyIdBody = z.object({ id: z.string().min(1) });
export const updatePasskeyBody = z.object({ id: z.string().min(1), name: z.string().trim().min(1).max(100) });

/** PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON: passed to the browser as they are. */
export const webAuthnOptionsReply = z.looseObject({ challenge: z.string() });
