import { createServer, type Server } from 'node:http';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';
import { freePort } from '../helpers/browser';

export interface TestAccount {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

/** A real OpenID Provider (oidc-provider) on 127.0.0.1 with development login/consent screens. */
export async function startOidcProvider(redirectUris: string[]) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, TestAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'ops-hub',
        client_secret: 'ops-hub-secret',
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  provider.on('server_error', (_ctx: unknown, err: unknown) => console.error('oidc-provider', err));
  const server: Server = createServer(provider.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // a browser's preconnected socket would keep close() waiting
      }),
  };
}

/**
 * Acts as the user at the provider: follows redirects with a cookie jar, signs in as `accountId` on the
 * login screen and approves the consent screen, until the provider redirects back to the app.
 * Returns that redirect (the app's callback URL with code and state).
 */
export async function authorizeAtProvider(
  authUrl: string,
  accountId: string,
  opts: { abort?: boolean } = {},
): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  let url = new URL(authUrl);
  const origin = url.origin;
  for (let step = 0; step < 12; step++) {
    if (url.origin !== origin) return url;
    let res: Response;
    if (url.pathname.startsWith('/interaction/')) {
      const page = await fetch(url, { headers: { cookie: cookieHeader() } });
      remember(page);
      const prompt = /name="prompt" value="(\w+)"/.exec(await page.text())?.[1];
      if (opts.abort) {
        res = await fetch(`${url.href}/abort`, { headers: { cookie: cookieHeader() }, redirect: 'manual' });
      } else {
        const body = new URLSearchParams(
          prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt: prompt ?? 'consent' },
        );
        res = await fetch(url, {
          method: 'POST',
          body,
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          redirect: 'manual',
        });
      }
    } else {
      res = await fetch(url, { headers: { cookie: cookieHeader() }, redirect: 'manual' });
    }
    remember(res);
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`provider stopped at ${url.href} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects at the provider');
}
