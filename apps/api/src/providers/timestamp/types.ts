/**
 * The time-stamping authority (RFC 3161) that dates the contract's seal (PAdES B-T): the one at
 * CONTRACT_TSA_URL, or outside production a simulator signing with a development certificate.
 */
export interface TimestampAuthority {
  /** Who stamps: the authority's URL, or the simulator. */
  readonly name: string;
  /** A token over the SHA-256 of `data`, checked against the request; throws while the authority cannot give one. */
  stamp(data: Uint8Array): Promise<Stamp>;
}

export interface Stamp {
  /** The token (a CMS ContentInfo, DER), as it goes into the seal's unsigned attributes. */
  token: Uint8Array;
  genTime: Date;
  serialNumber: string;
}

/** The authority could not be asked, or did not answer with a token. */
export class TimestampUnavailable extends Error {}
