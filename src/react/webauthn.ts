/**
 * The browser's passkey ceremony with no library: the server's JSON options become the
 * ArrayBuffers navigator.credentials.get wants, and the answer goes back as base64url JSON (the
 * shape the verify endpoint reads). One ceremony at a time: a new one cancels the waiting one (the
 * button takes over from autofill).
 */

interface RequestOptionsJSON {
  challenge: string;
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
  [key: string]: unknown;
}

function fromBase64url(value: string): ArrayBuffer {
  const base64 = value.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0)).buffer;
}

function toBase64url(buffer: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

let waiting: AbortController | null = null;

/** Whether the browser can offer passkeys in a field's autofill (conditional mediation). */
export async function supportsPasskeyAutofill(): Promise<boolean> {
  const credential = globalThis.PublicKeyCredential as
    | (typeof PublicKeyCredential & { isConditionalMediationAvailable?: () => Promise<boolean> })
    | undefined;
  return (await credential?.isConditionalMediationAvailable?.()) === true;
}

/** Runs the ceremony; throws when it is cancelled, refused or replaced by another. */
export async function getPasskeyAssertion(options: RequestOptionsJSON, autofill = false) {
  waiting?.abort();
  const controller = new AbortController();
  waiting = controller;
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    // Autofill offers every passkey of the site; a list would narrow what the browser shows.
    allowCredentials: autofill
      ? []
      : (options.allowCredentials ?? []).map((allowed) => ({ ...allowed, id: fromBase64url(allowed.id) })),
  } as PublicKeyCredentialRequestOptions;
  const credential = (await navigator.credentials.get({
    publicKey,
    signal: controller.signal,
    ...(autofill ? { mediation: "conditional" as CredentialMediationRequirement } : {}),
  })) as PublicKeyCredential | null;
  if (waiting === controller) waiting = null;
  if (!credential) throw new Error("No passkey was chosen");
  const response = credential.response as AuthenticatorAssertionResponse;
  return credentialJSON(credential, {
    clientDataJSON: toBase64url(response.clientDataJSON),
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    ...(response.userHandle ? { userHandle: toBase64url(response.userHandle) } : {}),
  });
}

/** A credential as the server reads it (WebAuthn's JSON form): its response's buffers in base64url. */
function credentialJSON<R>(credential: PublicKeyCredential, response: R) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  };
}

interface CreationOptionsJSON {
  challenge: string;
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string; type: string; transports?: string[] }[];
  [key: string]: unknown;
}

/** Registers a new passkey: the server's creation options in, the attestation out as base64url JSON. */
export async function createPasskeyCredential(options: CreationOptionsJSON) {
  waiting?.abort();
  waiting = null;
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials ?? []).map((known) => ({ ...known, id: fromBase64url(known.id) })),
  } as PublicKeyCredentialCreationOptions;
  const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
  if (!credential) throw new Error("No passkey was created");
  const response = credential.response as AuthenticatorAttestationResponse;
  return credentialJSON(credential, {
    clientDataJSON: toBase64url(response.clientDataJSON),
    attestationObject: toBase64url(response.attestationObject),
    transports: response.getTransports?.() ?? [],
  });
}
