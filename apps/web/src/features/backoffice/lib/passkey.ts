import { BackofficeError } from '../api.js';

/**
 * Passkeys through @simplewebauthn/browser, loaded only when one is used (the login screen and
 * the rest of the back office never download it). It turns the server's options into the
 * browser's navigator.credentials call and the answer back into JSON.
 */
type Json = Record<string, unknown>;

/** Whether to offer passkeys here: a browser with WebAuthn, on a domain (an IP address has none). */
export function passkeysOffered(): boolean {
  const host = window.location.hostname;
  const isIp = /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
  return typeof window.PublicKeyCredential === 'function' && !isIp;
}

const CANCELLED = new BackofficeError(
  0,
  'PASSKEY_CANCELLED',
  'No se usó la llave de acceso: se canceló o se agotó el tiempo. Intenta de nuevo.',
);
const FAILED = new BackofficeError(0, 'PASSKEY_FAILED', 'Este navegador no pudo usar la llave de acceso.');
const ALREADY = new BackofficeError(0, 'PASSKEY_EXISTS', 'Esta llave de acceso ya está registrada en tu cuenta.');

/** The browser's errors in words staff understand (a cancelled prompt is the usual one). */
function asError(error: unknown): BackofficeError {
  const name = error instanceof Error ? ((error as { cause?: { name?: string } }).cause?.name ?? error.name) : '';
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return ALREADY;
  if (name === 'NotAllowedError' || name === 'AbortError') return CANCELLED;
  return FAILED;
}

/** Signs the server's challenge with one of the person's passkeys. */
export async function signWithPasskey(options: Json): Promise<Json> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return (await startAuthentication({ optionsJSON: options as never })) as unknown as Json;
  } catch (error) {
    throw asError(error);
  }
}

/** Makes a new passkey for the person (the browser or the phone asks how to keep it). */
export async function createPasskey(options: Json): Promise<Json> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return (await startRegistration({ optionsJSON: options as never })) as unknown as Json;
  } catch (error) {
    throw asError(error);
  }
}
