import {
  applicationContractCall,
  applicationContractEvidenceCall,
  applicationDetailCall,
  applicationTimelineCall,
  bureauQueryRawCall,
  checkContractCall,
  decideVerificationCall,
  grantExtraAttemptCall,
  identityDocumentImageCall,
  issueContractLinkCall,
  listApplicationsCall,
  recordLenderDecisionCall,
  registerGuarantorCall,
  resendInvitationCall,
  retryBureauCall,
  reviewAddressCall,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { contractEvidence } from '../signing/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffOnly } from '../staff/index.js';
import {
  applicationUser,
  decideVerification,
  grantExtraAttempt,
  issueSigningLink,
  recordDecision,
  registerGuarantor,
  retryBureau,
  reviewAddress,
  sendInvitation,
} from './actions.service.js';
import { applicationDetail } from './application-detail.js';
import { timelinePage } from './application-timeline.js';
import {
  applicationContract,
  bureauRawReport,
  checkApplicationContract,
  identityImage,
  listApplications,
} from './applications.service.js';

/** Find, read and act on applications. */
const MAX_CHECKED_PDF_BYTES = 20 * 1024 * 1024;
const NOT_A_PDF = () =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'a PDF expected', 'Envía el contrato como un archivo PDF.');

export async function applicationRoutes(app: App): Promise<void> {
  register(app, listApplicationsCall, { onRequest: staffOnly('readApplications') }, async (request) => {
    const list = await listApplications(app, request.staffMember!, request.query);
    return { data: { ...list, page_size: request.query.page_size } };
  });

  register(app, applicationDetailCall, { onRequest: staffOnly('readApplications') }, async (request) => ({
    data: await applicationDetail(app, request.staffMember!, request.params.applicationId),
  }));

  // The timeline's older pages (the detail answers each chain's newest): as the detail, any staff role.
  register(app, applicationTimelineCall, { onRequest: staffOnly('readApplications') }, async (request) => ({
    data: await timelinePage(app, request.staffMember!, request.params.applicationId, request.query),
  }));

  // The bureau's answer as received is credit data in full (the RFC, addresses, employers, every
  // account): analysts only, with a recent second factor as for identity images, each look recorded.
  register(app, bureauQueryRawCall, { onRequest: staffOnly('readSensitive', { stepUp: true }) }, async (request) => {
    const { applicationId, queryId } = request.params;
    return { data: await bureauRawReport(app, request.staffMember!, applicationId, queryId) };
  });

  // Identity images and the evidence are personal data of the most sensitive kind: analysts only,
  // with a second factor given in the last 15 minutes, and each look is recorded.
  register(
    app,
    identityDocumentImageCall,
    { onRequest: staffOnly('readSensitive', { stepUp: true }) },
    async (request, reply) => {
      const { applicationId, documentId } = request.params;
      const image = await identityImage(app, applicationId, documentId);
      await appendAuditEvent(app.db, {
        applicationId,
        actor: staffActor(request.staffMember!),
        type: 'backoffice.identity_image_viewed',
        payload: { document_id: documentId },
        at: app.clock(),
      });
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'private, no-store')
        .send(image.bytes as unknown as string); // bytes as they are: no serializer runs for a Buffer
    },
  );

  // The contract names every party with their tax id: like the images, for analysts only.
  register(
    app,
    applicationContractCall,
    { onRequest: staffOnly('readSensitive', { stepUp: true }) },
    async (request, reply) => {
      const contract = await applicationContract(app, request.params.applicationId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="contrato-${contract.id}.pdf"`)
        .send(contract.pdf as unknown as string); // bytes as they are: no serializer runs for a Buffer
    },
  );

  register(
    app,
    applicationContractEvidenceCall,
    { onRequest: staffOnly('readSensitive', { stepUp: true }) },
    async (request) => {
      const contract = await applicationContract(app, request.params.applicationId);
      return { data: await contractEvidence(app, contract.id) };
    },
  );

  // "¿Es este documento el que firmamos?": the PDF itself is the body (this plugin's parser, 20 MB at most).
  app.addContentTypeParser(
    'application/pdf',
    { parseAs: 'buffer', bodyLimit: MAX_CHECKED_PDF_BYTES },
    (_request, body, done) => done(null, body),
  );
  register(
    app,
    checkContractCall,
    { onRequest: staffOnly('readSensitive'), bodyLimit: MAX_CHECKED_PDF_BYTES },
    async (request) => {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw NOT_A_PDF();
      return {
        data: await checkApplicationContract(app, request.staffMember!, request.params.applicationId, request.body),
      };
    },
  );

  const action = { onRequest: staffOnly('actOnApplications') };
  register(app, registerGuarantorCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    return { data: await registerGuarantor(app, request.staffMember!, user, request.body) };
  });

  register(app, resendInvitationCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    return { data: await sendInvitation(app, request.staffMember!, user, request.params.avalId) };
  });

  register(app, retryBureauCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    return { data: await retryBureau(app, request.staffMember!, user) };
  });

  register(app, reviewAddressCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    return { data: await reviewAddress(app, request.staffMember!, user, request.body) };
  });

  // 503: the contract's PDF not built within its time bound (decision 021).
  register(app, issueContractLinkCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    return { data: await issueSigningLink(app, request.staffMember!, user, request.body) };
  });

  register(app, recordLenderDecisionCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    return { data: await recordDecision(app, request.staffMember!, user, request.body) };
  });

  register(app, decideVerificationCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    const result = await decideVerification(
      app,
      request.staffMember!,
      user,
      request.params.verificationId,
      request.body,
    );
    return { data: result };
  });

  register(app, grantExtraAttemptCall, action, async (request) => {
    const user = await applicationUser(app, request.params.applicationId);
    const result = await grantExtraAttempt(app, request.staffMember!, user, request.params.signerId, request.body.note);
    return { data: result };
  });
}
