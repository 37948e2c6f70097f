import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Executor } from '../../db/client.js';
import { advancePasskeyCounter, findPasskey, insertPasskey, listPasskeys, type PasskeyRow } from './factors.store.js';

/**
 * Passkeys (WebAuthn) through SimpleWebAuthn: it builds the options and checks every part of what the
 * browser answers (challenge, origin, RP ID, signature, counter). The challenge is kept on the
 * session and used once; the relying party is the back office's own address.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

const descriptor = (row: PasskeyRow) => ({
  id: row.credentialId,
  transports: row.transports as AuthenticatorTransport[],
});

export async function registrationOptions(
  db: Executor,
  rp: RelyingParty,
  member: { id: string; email: string; name: string },
) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userDisplayName: member.name,
    userID: new TextEncoder().encode(member.id),
    attestationType: 'none',
    excludeCredentials: (await listPasskeys(db, member.id)).map(descriptor),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** A new passkey, once SimpleWebAuthn verified the browser's answer to this challenge; null otherwise. */
export async function registerPasskey(
  tx: Executor,
  rp: RelyingParty,
  input: { staffId: string; challenge: string; credential: unknown; name: string; now: Date },
): Promise<PasskeyRow | null> {
  const verification = await verifyRegistrationResponse({
    response: input.credential as RegistrationResponseJSON,
    expectedChallenge: input.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return null;
  const { credential } = verification.registrationInfo;
  return insertPasskey(tx, {
    staffId: input.staffId,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: input.name,
    createdAt: input.now,
  });
}

export async function authenticationOptions(db: Executor, rp: RelyingParty, staffId: string) {
  const passkeys = await listPasskeys(db, staffId);
  if (passkeys.length === 0) return null;
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map(descriptor),
    userVerification: 'preferred',
  });
}

/**
 * Checks an assertion by one of this person's passkeys against the challenge; the signature counter
 * moves in a guarded UPDATE (a cloned authenticator replaying an old counter is refused).
 */
export async function usePasskey(
  db: Executor,
  rp: RelyingParty,
  input: { staffId: string; challenge: string; credential: unknown; now: Date },
): Promise<boolean> {
  const response = input.credential as AuthenticationResponseJSON;
  const row = await findPasskey(db, input.staffId, response.id);
  if (!row) return false;
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: input.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: row.credentialId,
      publicKey: new Uint8Array(row.publicKey),
      counter: row.counter,
      transports: descriptor(row).transports,
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return false;
  const { newCounter } = verification.authenticationInfo;
  // Authenticators that keep no counter always send 0; one that does must move forward.
  return advancePasskeyCounter(db, row.id, newCounter, input.now);
}

/**
 * The relying party: the back office's public address (PUBLIC_BASE_URL), or outside production the
 * address the request came to. None for an IP address (a WebAuthn RP ID is a domain) or in
 * production without PUBLIC_BASE_URL: passkeys are then not offered.
 */
export function relyingParty(
  config: { PUBLIC_BASE_URL?: string; NODE_ENV: string; APP_NAME: string },
  request: { protocol: string; host: string },
): RelyingParty | null {
  const base =
    config.PUBLIC_BASE_URL ?? (config.NODE_ENV === 'production' ? null : `${request.protocol}://${request.host}`);
  if (!base) return null;
  const url = new URL(base);
  if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) return null;
  return { id: url.hostname, name: config.APP_NAME, origin: url.origin };
}
