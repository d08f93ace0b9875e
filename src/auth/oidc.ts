import * as client from 'openid-client';
import type { Config } from '../config';
import type { ExternalIdentity } from './external';

/** The two sign-in providers: Google, and any OIDC provider set by OIDC_ISSUER (Entra ID, Okta, Keycloak …). */
export type ProviderName = 'google' | 'oidc';

export interface ProviderSettings {
  name: ProviderName;
  issuer: string;
  clientId: string;
  clientSecret?: string;
}

/** The configured provider of that name, or undefined. */
export function providerSettings(config: Config, name: ProviderName): ProviderSettings | undefined {
  if (name === 'google') return config.google && { name, issuer: config.googleIssuer, ...config.google };
  return config.oidc && { name, ...config.oidc };
}

const discovered = new Map<string, Promise<client.Configuration>>();

/** The provider's discovered configuration, cached per issuer and client (a failed discovery is retried next time). */
function discover(p: ProviderSettings): Promise<client.Configuration> {
  const key = `${p.issuer}|${p.clientId}`;
  let found = discovered.get(key);
  if (!found) {
    const insecure = new URL(p.issuer).protocol === 'http:';
    found = client.discovery(
      new URL(p.issuer),
      p.clientId,
      p.clientSecret,
      p.clientSecret ? client.ClientSecretPost(p.clientSecret) : client.None(),
      {
        execute: insecure ? [client.allowInsecureRequests] : [],
      },
    );
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

export interface AuthRequest {
  url: string;
  verifier: string;
  state: string;
  nonce: string;
}

/** Builds the provider's authorization URL (code flow + PKCE S256 + state + nonce). */
export async function startAuthorization(p: ProviderSettings, redirectUri: string): Promise<AuthRequest> {
  const config = await discover(p);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, verifier, state, nonce };
}

/** Exchanges the callback's code, checks state, nonce, PKCE and the ID token, and returns who signed in. */
export async function finishAuthorization(
  p: ProviderSettings,
  callbackUrl: URL,
  checks: { verifier: string; state: string; nonce: string },
): Promise<ExternalIdentity> {
  const config = await discover(p);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.verifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims()!;
  let claims: Record<string, unknown> = { ...idClaims };
  if (!claims.email && tokens.access_token) {
    claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...claims };
  }
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    provider: p.name,
    issuer: idClaims.iss,
    subject: idClaims.sub,
    email: str(claims.email),
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    firstName: str(claims.given_name),
    lastName: str(claims.family_name),
    picture: str(claims.picture),
  };
}
