import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOidcProvider } from '../apps/api/src/test/oidc-provider.js';

/**
 * The lender's identity provider for the 'staff' server: a real OpenID Connect provider (the API
 * tests' own, panva's oidc-provider) in the global setup's process. A person signs in there with
 * their company account; in the run, the test says who that is through a small control address
 * (POST /sign-in-as {email}), the stand-in for the provider's own login form.
 */
export async function startSsoProvider(redirectUri: string) {
  const provider = await startOidcProvider({ redirectUris: [redirectUri] });
  const control = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || req.url !== '/sign-in-as') throw new Error('not found');
        const { email } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { email: string };
        provider.signInAs({ email, amr: ['pwd'] });
        res.writeHead(204).end();
      } catch {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => control.close(resolve));
      await provider.close();
    },
  };
}
