/**
 * The reply field that tells the app a mailbox proof stripped an unproven account
 * (credentialsRemovedField in the contract): present only when it happened, so other replies keep
 * better-auth's exact shape.
 */
export const credentialsRemovedReply = (outcome: { credentialsRemoved: boolean }) =>
  outcome.credentialsRemoved ? { credentialsRemoved: true as const } : {};
