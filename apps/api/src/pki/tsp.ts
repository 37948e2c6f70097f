import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID, readTimestampToken, signCms, type SigningMaterial } from './cms.js';

/**
 * RFC 3161's time-stamp protocol through PKI.js: the request a client sends for a SHA-256, the
 * check of the authority's answer against it, and (for the simulator and a NOM-151 stand-in) an
 * answer made with a key of our own.
 */

const arrayBuffer = (bytes: Uint8Array) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

const sha256Imprint = (digest: Uint8Array) =>
  new pkijs.MessageImprint({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    hashedMessage: new asn1js.OctetString({ valueHex: arrayBuffer(digest) }),
  });

export interface TimestampRequest {
  der: Uint8Array;
  /** What is time-stamped (its SHA-256 is the request's imprint). */
  data: Uint8Array;
  nonce: Uint8Array;
}

/** A TimeStampReq for the SHA-256 of `data`, with a nonce, asking for the authority's certificate. */
export function timestampRequest(data: Uint8Array): TimestampRequest {
  const digest = createHash('sha256').update(data).digest();
  // A positive INTEGER: the high bit clear.
  const nonce = randomBytes(8);
  nonce[0]! &= 0x7f;
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: sha256Imprint(digest),
    nonce: new asn1js.Integer({ valueHex: arrayBuffer(nonce) }),
    certReq: true,
  });
  return { der: new Uint8Array(request.toSchema().toBER(false)), data, nonce: new Uint8Array(nonce) };
}

/** Why an authority's answer is not a token for our request. */
export class TimestampRefused extends Error {}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** The granted token of a TimeStampResp, over the SHA-256 of `data` (its DER and what it says). */
function grantedToken(response: Uint8Array, data: Uint8Array) {
  let parsed: pkijs.TimeStampResp;
  try {
    parsed = pkijs.TimeStampResp.fromBER(arrayBuffer(response));
  } catch {
    throw new TimestampRefused('the answer is not a TimeStampResp');
  }
  const status = parsed.status.status;
  if ((status !== 0 && status !== 1) || !parsed.timeStampToken)
    throw new TimestampRefused(`the authority refused the request (status ${status})`);
  const token = new Uint8Array(parsed.timeStampToken.toSchema().toBER(false));
  let read: ReturnType<typeof readTimestampToken>;
  try {
    read = readTimestampToken(token);
  } catch {
    throw new TimestampRefused('the answer’s token is not a time-stamp token');
  }
  if (!sameBytes(read.imprint, createHash('sha256').update(data).digest()))
    throw new TimestampRefused('the token covers another digest');
  return { token, read };
}

/** The token's signature, by the certificate it carries (PKI.js also checks the imprint against the data). */
async function checkSignature(read: ReturnType<typeof readTimestampToken>, data: Uint8Array) {
  const verified = await read.signedData
    .verify({ signer: 0, data: arrayBuffer(data), checkChain: false, extendedMode: true })
    .then((result) => result.signatureVerified === true)
    .catch(() => false);
  if (!verified) throw new TimestampRefused('the token’s signature does not verify');
}

/**
 * The token in an authority's TimeStampResp, checked against the request: granted, over our
 * digest, with our nonce, and signed by the certificate it carries (PKI.js checks the signature and
 * the imprint against the data). Returns its ContentInfo's DER.
 */
export async function tokenFromResponse(response: Uint8Array, request: TimestampRequest) {
  const { token, read } = grantedToken(response, request.data);
  const nonce = read.tstInfo.nonce;
  if (!nonce || !sameBytes(new Uint8Array(nonce.valueBlock.valueHexView), request.nonce))
    throw new TimestampRefused('the token answers another request (nonce)');
  await checkSignature(read, request.data);
  return { token, genTime: read.genTime, serialNumber: read.serialNumber };
}

/**
 * A NOM-151 constancia (a PSC's TimeStampResp, DER) checked against the document it certifies:
 * granted, over the document's SHA-256, and signed by the certificate it carries (the chain to the
 * PSC's root is not checked here). No nonce: the PSC made the RFC 3161 request, not us.
 */
export async function checkConservationRecord(record: Uint8Array, document: Uint8Array) {
  const { token, read } = grantedToken(record, document);
  await checkSignature(read, document);
  return { token, genTime: read.genTime, serialNumber: read.serialNumber };
}

/** An authority of our own (the simulator, a stand-in): a granted TimeStampResp for a TimeStampReq. */
export async function issueTimestamp(
  requestDer: Uint8Array,
  authority: SigningMaterial,
  options: { policy: string; at: Date },
): Promise<Uint8Array> {
  const request = pkijs.TimeStampReq.fromBER(arrayBuffer(requestDer));
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: options.policy,
    messageImprint: request.messageImprint,
    serialNumber: new asn1js.Integer({
      valueHex: arrayBuffer(randomBytes(16).map((b, i) => (i === 0 ? b & 0x7f : b))),
    }),
    genTime: options.at,
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ordering: false,
    ...(request.nonce ? { nonce: request.nonce } : {}),
  });
  const token = await signCms(new Uint8Array(tstInfo.toSchema().toBER(false)), authority, {
    contentType: OID.tstInfo,
    encapsulate: true,
  });
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: new pkijs.ContentInfo({ schema: asn1js.fromBER(arrayBuffer(token)).result }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}
