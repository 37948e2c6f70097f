// What other modules use of identity verification: the signer's checks, their answers and the images decoder.
import './decorations.js';
export { identityRoutes } from './identity.routes.js';
export type { IdentityRouteOptions, SignerGate } from './route-parts.js';
export { identityDeps, type IdentityDeps } from './deps.js';
export { createImageDecoder, type DecodeRefusal, type Encoded, type ImageDecoder } from './decode.js';
export { checkSignaturePng } from './image.js';
export { imageRefused } from './uploads.js';
export { answerCheck, simulatedAnswerJob } from './answers.js';
export { nextSignal } from './answer-signals.js';
export { ALREADY_SIGNED, FORBIDDEN } from './identity-check.js';
export { signerWidget, verificationStatus } from './status.js';
export {
  addExtraAttempt,
  findCheck,
  findCheckOfApplication,
  findChecks,
  findSigner,
  findSignerOfApplication,
  type CheckRow,
} from './checks.store.js';
export { deleteStagedPhotos } from './photos.store.js';
export { signerPersonId } from './signer-person.js';
