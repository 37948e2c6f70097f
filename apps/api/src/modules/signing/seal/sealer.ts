import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../../config.js';
import { loadCredential, type Credential, type CredentialSource } from '../../../pki/p12.js';
import { createConservationProvider, type ConservationProvider } from '../../../providers/conservation/index.js';
import { createTimestampAuthority, type TimestampAuthority } from '../../../providers/timestamp/index.js';
import type { SealLabel } from './pades.js';

/**
 * Who seals the signed contract, who dates the seal and who keeps it under NOM-151: the lender's
 * certificate (CONTRACT_SEAL_P12_FILE), the time-stamping authority (CONTRACT_TSA_URL) and the
 * conservation provider (NOM151_PROVIDER). Outside production (config.ts refuses it there),
 * development certificates made under DATA_DIR on first use stand in, and the seal's reason says so.
 */
export interface ContractSealer {
  /** The lender's certificate and key, read once (on a worker thread) and kept. */
  credential(): Promise<Credential>;
  /** A development certificate, not the lender's. */
  development: boolean;
  authority: TimestampAuthority;
  /** NOM-151's conservation provider (COUNTRY=mx). */
  conservation: ConservationProvider;
  /** The seal's /Reason, /Name, /Location and /ContactInfo at this moment. */
  label(at: Date): SealLabel;
  /**
   * At start, before the server listens (no request waits): the seal read (~45 ms) and the
   * development certificates made if they are not there yet (the first start, ~0.7 s once), so a
   * busy moment's signatures never share the PDF thread with either.
   */
  prepare(): void;
}

/** The development files' password: they are kept like the development secret, by the file's mode (0600). */
const DEVELOPMENT_PASSWORD = 'provee-development';
export const DEVELOPMENT_REASON = 'MODO DE PRUEBA: sello con un certificado de desarrollo, sin validez legal';

type SealerConfig = Pick<
  Config,
  | 'CONTRACT_SEAL_P12_FILE'
  | 'CONTRACT_SEAL_P12_PASSWORD'
  | 'CONTRACT_TSA_URL'
  | 'CONTRACT_TSA_TIMEOUT_MS'
  | 'NOM151_PROVIDER'
  | 'MIFIEL_BASE_URL'
  | 'MIFIEL_APP_ID'
  | 'MIFIEL_APP_SECRET'
  | 'DATA_DIR'
  | 'LENDER_NAME'
  | 'COUNTRY'
>;

/** A credential read on first use (or at start) and kept; a failed read is tried again next time. */
function kept(load: (source: CredentialSource) => Promise<Credential>, source: CredentialSource) {
  let loading: Promise<Credential> | undefined;
  const get = () => {
    loading ??= load(source).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  get.readNow = () => {
    loading = Promise.resolve(loadCredential(source));
  };
  return get;
}

export function createContractSealer(
  config: SealerConfig,
  load: (source: CredentialSource) => Promise<Credential>,
): ContractSealer {
  const lender = config.LENDER_NAME;
  const dataDir = resolve(config.DATA_DIR);
  const development = !config.CONTRACT_SEAL_P12_FILE;
  const credential = kept(
    load,
    development
      ? {
          file: join(dataDir, 'contract-seal-development.p12'),
          password: DEVELOPMENT_PASSWORD,
          development: { commonName: `${lender} - sello de desarrollo (sin validez)`, organization: lender },
        }
      : { file: config.CONTRACT_SEAL_P12_FILE!, password: config.CONTRACT_SEAL_P12_PASSWORD },
  );
  const authoritySource: CredentialSource = {
    file: join(dataDir, 'tsa-development.p12'),
    password: DEVELOPMENT_PASSWORD,
    development: {
      commonName: 'Provee - autoridad de sellado de tiempo simulada (sin validez)',
      organization: 'Provee',
      timeStamping: true,
    },
  };
  const developmentAuthority = kept(load, authoritySource);
  // The simulators' authority, made at start when missing (read when a seal is completed).
  const authorityNeeded =
    !config.CONTRACT_TSA_URL || (config.COUNTRY === 'mx' && config.NOM151_PROVIDER === 'simulator');
  return {
    credential,
    development,
    authority: createTimestampAuthority(config, developmentAuthority),
    conservation: createConservationProvider(config, developmentAuthority),
    prepare() {
      credential.readNow();
      if (authorityNeeded && !existsSync(authoritySource.file)) loadCredential(authoritySource);
    },
    label: (at) => ({
      reason: development
        ? DEVELOPMENT_REASON
        : `Sello de ${lender}: contrato firmado por todas las partes, con su evidencia de firma`,
      name: lender,
      location: config.COUNTRY === 'mx' ? 'México' : 'República Dominicana',
      contactInfo: lender,
      signingTime: at,
    }),
  };
}
