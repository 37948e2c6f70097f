import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * The CMS (RFC 5652) signatures of the contract's seal, through PKI.js: the lender's CAdES-detached
 * signature over the PDF's byte range (PAdES baseline B: content type, message digest and the
 * signing certificate v2 as signed attributes, no signing time: the PDF's /M carries it), the
 * RFC 3161 token added later as its unsigned attribute (PAdES B-T), and the reading of both.
 */

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

/** A signing key and its certificates, as the worker thread receives them (plain bytes). */
export interface SigningMaterial {
  /** PKCS#8 DER of the private key (RSA). */
  privateKey: Uint8Array;
  /** DER certificates, the signer's first, then the chain above it. */
  certificates: Uint8Array[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
const arrayBuffer = (bytes: Uint8Array) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** ESS signing-certificate-v2 (RFC 5035) naming the signer's certificate by its SHA-256 and issuer + serial. */
function signingCertificateV2(certificateDer: Uint8Array, certificate: pkijs.Certificate) {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new pkijs.GeneralName({ type: 4, value: certificate.issuer }).toSchema()] }),
      certificate.serialNumber,
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: arrayBuffer(sha256(certificateDer)) }), issuerSerial],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/**
 * A CMS SignedData over `content`: detached (the PDF's byte range) or, with `encapsulate`, carrying
 * it (a time-stamp token's TSTInfo). Returns the DER of its ContentInfo.
 */
export async function signCms(
  content: Uint8Array,
  material: SigningMaterial,
  options: { contentType?: string; encapsulate?: boolean } = {},
): Promise<Uint8Array> {
  const contentType = options.contentType ?? OID.data;
  const [signerDer, ...chainDer] = material.certificates;
  if (!signerDer) throw new Error('signCms: no certificate');
  const signer = pkijs.Certificate.fromBER(signerDer);
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: contentType,
      ...(options.encapsulate ? { eContent: new asn1js.OctetString({ valueHex: arrayBuffer(content) }) } : {}),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({
              type: OID.contentType,
              values: [new asn1js.ObjectIdentifier({ value: contentType })],
            }),
            new pkijs.Attribute({
              type: OID.messageDigest,
              values: [new asn1js.OctetString({ valueHex: arrayBuffer(sha256(content)) })],
            }),
            new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(signerDer, signer)] }),
          ],
        }),
      }),
    ],
    certificates: [signer, ...chainDer.map((der) => pkijs.Certificate.fromBER(der))],
  });
  const key = await webcrypto.subtle.importKey(
    'pkcs8',
    material.privateKey,
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  await signedData.sign(key, 0, 'SHA-256');
  return contentInfoDer(signedData);
}

function contentInfoDer(signedData: pkijs.SignedData): Uint8Array {
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

/** The SignedData of a ContentInfo's DER (trailing zeros of a PDF's /Contents are ignored). */
export function readSignedData(der: Uint8Array): pkijs.SignedData {
  const parsed = asn1js.fromBER(arrayBuffer(der));
  if (parsed.offset === -1) throw new Error('not a DER structure');
  const info = new pkijs.ContentInfo({ schema: parsed.result });
  if (info.contentType !== OID.signedData) throw new Error('not a CMS SignedData');
  return new pkijs.SignedData({ schema: info.content });
}

/** The signer's signature value: what an RFC 3161 signature time-stamp covers (its SHA-256). */
export function signatureValueOf(cms: Uint8Array): Uint8Array {
  const signerInfo = readSignedData(cms).signerInfos[0];
  if (!signerInfo) throw new Error('CMS without a signer');
  return new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
}

/** The same CMS with `token` (a time-stamp token's ContentInfo, DER) as its signer's unsigned attribute. */
export function withTimestamp(cms: Uint8Array, token: Uint8Array): Uint8Array {
  const signedData = readSignedData(cms);
  const signerInfo = signedData.signerInfos[0]!;
  const tokenSchema = asn1js.fromBER(arrayBuffer(token)).result;
  signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [new pkijs.Attribute({ type: OID.timeStampToken, values: [tokenSchema] })],
  });
  return contentInfoDer(signedData);
}

/** The token in a CMS's unsigned attributes, if any (DER of its ContentInfo). */
export function timestampTokenOf(cms: Uint8Array): Uint8Array | null {
  const attribute = readSignedData(cms).signerInfos[0]?.unsignedAttrs?.attributes.find(
    (one) => one.type === OID.timeStampToken,
  );
  const value = attribute?.values[0] as asn1js.BaseBlock | undefined;
  return value ? new Uint8Array(value.toBER(false)) : null;
}

/** What a time-stamp token says: when, over which SHA-256, its serial, and the authority's certificate. */
export function readTimestampToken(token: Uint8Array) {
  const signedData = readSignedData(token);
  const eContent = signedData.encapContentInfo.eContent;
  if (signedData.encapContentInfo.eContentType !== OID.tstInfo || !eContent) throw new Error('not a time-stamp token');
  const tstInfo = pkijs.TSTInfo.fromBER(eContent.getValue());
  return {
    signedData,
    tstInfo,
    genTime: tstInfo.genTime,
    imprint: new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView),
    serialNumber: Buffer.from(tstInfo.serialNumber.valueBlock.valueHexView).toString('hex'),
  };
}
