import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const b64url = (data: Uint8Array) => isoBase64URL.fromBuffer(Uint8Array.from(data));

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

/**
 * A WebAuthn authenticator in software (ES256, "none" attestation), for tests that drive the
 * passkey routes over HTTP the way a browser would. Browser tests use Chromium's virtual
 * authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(16));
  readonly #keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  #counter = 0;

  constructor(
    readonly rpID: string,
    readonly origin: string,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  #cosePublicKey(): Uint8Array {
    const jwk = this.#keys.publicKey.export({ format: "jwk" });
    const coordinate = (value: string | undefined) => isoBase64URL.toBuffer(value ?? "");
    // kty EC2, alg ES256, crv P-256, x, y
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, coordinate(jwk.x)],
      [-3, coordinate(jwk.y)],
    ]);
    return isoCBOR.encode(key);
  }

  #authenticatorData(flags: number, attested: Uint8Array = new Uint8Array()): Uint8Array {
    const counter = new Uint8Array(4);
    new DataView(counter.buffer).setUint32(0, this.#counter);
    return concat(sha256(this.rpID), new Uint8Array([flags]), counter, attested);
  }

  #clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin = this.origin): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The browser's answer to registration options (navigator.credentials.create, serialised). */
  register(options: { challenge: string }) {
    const idLength = new Uint8Array(2);
    new DataView(idLength.buffer).setUint16(0, this.credentialId.length);
    const attested = concat(new Uint8Array(16), idLength, this.credentialId, this.#cosePublicKey());
    const flags = FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA;
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", this.#authenticatorData(flags, attested)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.#clientData("webauthn.create", options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * The browser's answer to authentication options (navigator.credentials.get, serialised).
   * `userVerified: false` leaves the UV flag off (a security key touched without its PIN).
   */
  authenticate(options: { challenge: string }, overrides: { origin?: string; userVerified?: boolean } = {}) {
    this.#counter += 1;
    const flags = FLAG_USER_PRESENT | (overrides.userVerified === false ? 0 : FLAG_USER_VERIFIED);
    const authenticatorData = this.#authenticatorData(flags);
    const clientDataJSON = this.#clientData("webauthn.get", options.challenge, overrides.origin);
    const signature = sign("sha256", concat(authenticatorData, sha256(clientDataJSON)), this.#keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(new Uint8Array(signature)),
      },
      clientExtensionResults: {},
    };
  }
}
