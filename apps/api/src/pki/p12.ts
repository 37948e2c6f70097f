import { createHash, createPrivateKey, createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import forge from 'node-forge';
import type { SigningMaterial } from './cms.js';

/**
 * A PKCS#12 file (the lender's seal, a development authority) read into the bytes the CMS signs
 * with, through node-forge. Its key must be RSA (forge's PKCS#12 reads RSA keys only). Reading one
 * takes ~45 ms of CPU (forge's key derivation in JavaScript) and making a development one ~350 ms:
 * the server does both on a worker thread (`loadCredential`), never on the event loop.
 */
export interface Credential extends SigningMaterial {
  /** The signer certificate's subject common name. */
  name: string;
  /** The signer certificate's SHA-256 (hex, lower case). */
  sha256: string;
}

/** Where a credential comes from: a configured file, or a development one made there on first use. */
export type CredentialSource =
  | { file: string; password: string; development?: undefined }
  | { file: string; password: string; development: DevelopmentIdentity };

export function loadCredential(source: CredentialSource): Credential {
  return source.development
    ? developmentP12(source.file, source.password, source.development)
    : readP12(readFileSync(source.file), source.password);
}

const derBytes = (der: string) => new Uint8Array(Buffer.from(der, 'binary'));

/** Reads `bytes` with `password`; throws a Spanish message naming what is wrong. */
export function readP12(bytes: Uint8Array, password: string): Credential {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    throw new Error(`no se pudo abrir el archivo PKCS#12 (¿contraseña correcta?): ${(error as Error).message}`, {
      cause: error,
    });
  }
  const keyBag = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ][0];
  if (!keyBag?.key) throw new Error('el archivo PKCS#12 no tiene una llave RSA');
  const privateKey = derBytes(
    forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key))).getBytes(),
  );
  const certificates = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .filter((bag) => bag.cert)
    .map((bag) => derBytes(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert!)).getBytes()));
  const publicKey = createPublicKey(createPrivateKey({ key: Buffer.from(privateKey), format: 'der', type: 'pkcs8' }));
  const signerIndex = certificates.findIndex((der) => new X509Certificate(der).publicKey.equals(publicKey));
  if (signerIndex < 0) throw new Error('el archivo PKCS#12 no tiene el certificado de su llave');
  const signer = certificates[signerIndex]!;
  const subject = new X509Certificate(signer).subject;
  return {
    privateKey,
    certificates: [signer, ...certificates.filter((_, index) => index !== signerIndex)],
    name: /CN=([^\n]+)/.exec(subject)?.[1] ?? subject,
    sha256: createHash('sha256').update(signer).digest('hex'),
  };
}

/** What a development certificate says and may do. */
export interface DevelopmentIdentity {
  commonName: string;
  organization: string;
  /** An RFC 3161 authority's certificate must say so, critically (extended key usage timeStamping). */
  timeStamping?: boolean;
}

/**
 * A self-signed certificate made once under DATA_DIR and kept there (like the development secret):
 * never the lender's, and says so in its name.
 */
export function developmentP12(file: string, password: string, identity: DevelopmentIdentity): Credential {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // Written whole under another name, then linked: a process starting at the same moment reads
    // either no file or a complete one, and the first link wins.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, makeDevelopmentP12(password, identity), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return readP12(readFileSync(file), password);
}

function makeDevelopmentP12(password: string, identity: DevelopmentIdentity): Buffer {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(12).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600_000);
  const name = [
    { name: 'commonName', value: identity.commonName },
    { name: 'organizationName', value: identity.organization },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true },
    ...(identity.timeStamping ? [{ name: 'extKeyUsage', critical: true, timeStamping: true }] : []),
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, {
    algorithm: 'aes256',
    friendlyName: identity.commonName,
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
