/**
 * The algorithms a key of this server's JWK set may sign with (`jwt.jwks.keyPairConfig.alg`, as
 * better-auth's jwt plugin names it): what a verifier of its tokens should accept, and nothing
 * else (no `none`, no shared-secret HMAC).
 */
export const JWT_SIGNING_ALGORITHMS = ["EdDSA", "ES256", "RS256"] as const;
export type JwtSigningAlgorithm = (typeof JWT_SIGNING_ALGORITHMS)[number];
