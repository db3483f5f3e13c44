import type { AccountSelector } from "../../../contract/social.js";
import { auditChange } from "../../audit/trail.service.js";
import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";
import type { SocialProvider } from "../../providers/social-provider.js";
import type { ProviderTokens } from "../../providers/types.js";
import type { CallerRead, ListedAccountText } from "../../store/caller-reads.js";
import {
  type AccountRecord,
  countUserAccounts,
  deleteUserAccount,
  findUserAccount,
  lockUser,
  updateAccountTokens,
} from "../../store/social-accounts.js";
import { invalidInput } from "../../validation.js";
import { openTokens, sealTokens, splitScopes } from "./tokens.js";

/** SPEC 9: an access token is refreshed when it expires within 5 seconds. */
const REFRESH_MARGIN_MS = 5_000;

/**
 * The one lookup for every route that names an account: within the caller's own accounts,
 * `accountId` matches the row id (WIRE) or the provider's account id (SPEC), narrowed by
 * `providerId` when given.
 */
export async function findAccountFor(
  ctx: AuthContext,
  userId: string,
  selector: AccountSelector,
): Promise<AccountRecord> {
  if (!selector.providerId && !selector.accountId) {
    throw invalidInput([{ where: "body", message: "accountId or providerId is required" }]);
  }
  const account = await findUserAccount(ctx.db, userId, { id: selector.accountId, providerId: selector.providerId });
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  return account;
}

function providerOf(ctx: AuthContext, account: AccountRecord): SocialProvider {
  const provider = ctx.providers.get(account.providerId);
  if (!provider) {
    throw new AuthError("PROVIDER_NOT_SUPPORTED", { message: `Provider ${account.providerId} is not supported` });
  }
  return provider;
}

/** What list-accounts reads with the caller's session: the user's accounts, no token among them. */
export function callerAccountsRead(): CallerRead & { rows: "accounts" } {
  return { rows: "accounts" };
}

/** list-accounts' answer from the user's account rows (no token leaves). */
export function accountList(accounts: ListedAccountText[]) {
  return accounts.map((a) => ({
    id: a.id,
    provider: a.providerId,
    providerId: a.providerId,
    accountId: a.accountId,
    userId: a.userId,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    scopes: splitScopes(a.scope),
  }));
}

/** Removes one of the caller's accounts; the last one stays unless allowUnlinkingAll (decided under a user lock). */
export async function unlinkAccount(ctx: AuthContext, userId: string, selector: AccountSelector): Promise<void> {
  const account = await findAccountFor(ctx, userId, selector);
  await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, userId, ctx.dialect);
    const count = await countUserAccounts(trx, userId);
    if (count <= 1 && !ctx.options.account.accountLinking.allowUnlinkingAll) {
      throw new AuthError("FAILED_TO_UNLINK_LAST_ACCOUNT");
    }
    if ((await deleteUserAccount(trx, userId, account.id)) === 0) throw new AuthError("ACCOUNT_NOT_FOUND");
    await auditChange(ctx, trx, { subjectId: userId });
  });
}

async function refreshAndStore(
  ctx: AuthContext,
  provider: SocialProvider,
  account: AccountRecord,
  tokens: ProviderTokens,
): Promise<ProviderTokens> {
  if (!tokens.refreshToken) throw new AuthError("REFRESH_TOKEN_NOT_FOUND");
  const fresh = await provider.refresh(tokens.refreshToken, tokens.scopes);
  const merged: ProviderTokens = { ...fresh, idToken: fresh.idToken ?? tokens.idToken };
  await updateAccountTokens(ctx.db, account.id, sealTokens(ctx, merged), ctx.now());
  return merged;
}

/** A valid access token, refreshed first when it expires within 5 seconds and a refresh token exists. */
export async function getAccessToken(ctx: AuthContext, userId: string, selector: AccountSelector) {
  const account = await findAccountFor(ctx, userId, selector);
  return validTokens(ctx, providerOf(ctx, account), account);
}

async function validTokens(ctx: AuthContext, provider: SocialProvider, account: AccountRecord) {
  let tokens = openTokens(ctx, account);
  const expiresAt = tokens.accessTokenExpiresAt?.getTime();
  if (tokens.refreshToken && expiresAt !== undefined && expiresAt - ctx.now().getTime() < REFRESH_MARGIN_MS) {
    try {
      tokens = await refreshAndStore(ctx, provider, account, tokens);
    } catch (error) {
      ctx.logger.warn("access token refresh failed", { provider: provider.id, error: String(error) });
      throw new AuthError("FAILED_TO_GET_ACCESS_TOKEN");
    }
  }
  if (!tokens.accessToken) throw new AuthError("FAILED_TO_GET_ACCESS_TOKEN");
  return {
    accessToken: tokens.accessToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    scopes: tokens.scopes,
    idToken: tokens.idToken,
  };
}

/** Always asks the provider for new tokens. */
export async function refreshToken(ctx: AuthContext, userId: string, selector: AccountSelector) {
  const account = await findAccountFor(ctx, userId, selector);
  const provider = providerOf(ctx, account);
  const current = openTokens(ctx, account);
  if (!current.refreshToken) throw new AuthError("REFRESH_TOKEN_NOT_FOUND");
  let tokens: ProviderTokens;
  try {
    tokens = await refreshAndStore(ctx, provider, account, current);
  } catch (error) {
    ctx.logger.warn("token refresh failed", { provider: provider.id, error: String(error) });
    throw new AuthError("FAILED_TO_REFRESH_ACCESS_TOKEN");
  }
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    scope: tokens.scopes.join(","),
    idToken: tokens.idToken,
    providerId: account.providerId,
    accountId: account.id,
  };
}

/** The provider's current view of the user, read with a valid access token. */
export async function accountInfo(ctx: AuthContext, userId: string, selector: AccountSelector) {
  const account = await findAccountFor(ctx, userId, selector);
  const provider = providerOf(ctx, account);
  const { accessToken } = await validTokens(ctx, provider, account);
  let data: Record<string, unknown>;
  try {
    data = await provider.fetchUserInfo(accessToken, null);
  } catch {
    throw new AuthError("FAILED_TO_GET_USER_INFO");
  }
  const profile = provider.mapProfile(data);
  if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return {
    user: {
      id: profile.id,
      name: profile.name,
      email: profile.email,
      image: profile.image,
      emailVerified: profile.emailVerified,
    },
    data,
    account: { id: account.id, providerId: account.providerId, accountId: account.accountId },
  };
}
