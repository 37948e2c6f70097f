import {
  actionResponse,
  addressReviewBody,
  applicationDetailResponse,
  applicationParams,
  applicationsQuery,
  applicationsResponse,
  extraAttemptBody,
  guarantorParams,
  identityDocumentParams,
  issueContractLinkBody,
  registerGuarantorBody,
  reviewDecisionBody,
  signerParamsBackoffice,
  verificationParams,
} from '@provee/domain';
import { errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { contractEvidence } from '../signing/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffOnly } from '../staff/index.js';
import {
  applicationUser,
  decideVerification,
  grantExtraAttempt,
  issueSigningLink,
  registerGuarantor,
  retryBureau,
  reviewAddress,
  sendInvitation,
} from './actions.service.js';
import { applicationContract, applicationDetail, identityImage, listApplications } from './applications.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
  502: errorResponseSchema,
};

/** Find, read and act on applications. */
export async function applicationRoutes(app: App): Promise<void> {
  app.get(
    '/applications',
    {
      onRequest: staffOnly('readApplications'),
      schema: { querystring: applicationsQuery, response: { 200: applicationsResponse, ...errors } },
    },
    async (request) => {
      const { items, total } = await listApplications(app, request.staffMember!, request.query);
      return { data: { items, total, page: request.query.page, page_size: request.query.page_size } };
    },
  );

  app.get(
    '/applications/:applicationId',
    {
      onRequest: staffOnly('readApplications'),
      schema: { params: applicationParams, response: { 200: applicationDetailResponse, ...errors } },
    },
    async (request) => ({ data: await applicationDetail(app, request.staffMember!, request.params.applicationId) }),
  );

  // Identity images and the evidence are personal data of the most sensitive kind: analysts only,
  // with a second factor given in the last 15 minutes, and each look is recorded.
  app.get(
    '/applications/:applicationId/identity-documents/:documentId',
    { onRequest: staffOnly('readSensitive', { stepUp: true }), schema: { params: identityDocumentParams } },
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
        .send(image.bytes);
    },
  );

  // The contract names every party with their tax id: like the images, for analysts only.
  app.get(
    '/applications/:applicationId/contract',
    { onRequest: staffOnly('readSensitive', { stepUp: true }), schema: { params: applicationParams } },
    async (request, reply) => {
      const contract = await applicationContract(app, request.params.applicationId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="contrato-${contract.id}.pdf"`)
        .send(contract.pdf);
    },
  );

  app.get(
    '/applications/:applicationId/contract/evidence',
    { onRequest: staffOnly('readSensitive', { stepUp: true }), schema: { params: applicationParams } },
    async (request) => {
      const contract = await applicationContract(app, request.params.applicationId);
      return { data: await contractEvidence(app, contract.id) };
    },
  );

  const action = { onRequest: staffOnly('actOnApplications') };
  app.post(
    '/applications/:applicationId/guarantors',
    {
      ...action,
      schema: { params: applicationParams, body: registerGuarantorBody, response: { 200: actionResponse, ...errors } },
    },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      return { data: await registerGuarantor(app, request.staffMember!, user, request.body) };
    },
  );

  app.post(
    '/applications/:applicationId/guarantors/:avalId/invitation',
    { ...action, schema: { params: guarantorParams, response: { 200: actionResponse, ...errors } } },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      return { data: await sendInvitation(app, request.staffMember!, user, request.params.avalId) };
    },
  );

  app.post(
    '/applications/:applicationId/bureau-retry',
    { ...action, schema: { params: applicationParams, response: { 200: actionResponse, ...errors } } },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      return { data: await retryBureau(app, request.staffMember!, user) };
    },
  );

  app.post(
    '/applications/:applicationId/address',
    {
      ...action,
      schema: { params: applicationParams, body: addressReviewBody, response: { 200: actionResponse, ...errors } },
    },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      return { data: await reviewAddress(app, request.staffMember!, user, request.body) };
    },
  );

  app.post(
    '/applications/:applicationId/contract-links',
    {
      ...action,
      // 503: the contract's PDF not built within its time bound (decision 021).
      schema: {
        params: applicationParams,
        body: issueContractLinkBody,
        response: { 200: actionResponse, ...errors, 503: errorResponseSchema },
      },
    },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      return { data: await issueSigningLink(app, request.staffMember!, user, request.body) };
    },
  );

  app.post(
    '/applications/:applicationId/verifications/:verificationId/decision',
    {
      ...action,
      schema: { params: verificationParams, body: reviewDecisionBody, response: { 200: actionResponse, ...errors } },
    },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      const result = await decideVerification(
        app,
        request.staffMember!,
        user,
        request.params.verificationId,
        request.body,
      );
      return { data: result };
    },
  );

  app.post(
    '/applications/:applicationId/signers/:signerId/extra-attempt',
    {
      ...action,
      schema: { params: signerParamsBackoffice, body: extraAttemptBody, response: { 200: actionResponse, ...errors } },
    },
    async (request) => {
      const user = await applicationUser(app, request.params.applicationId);
      const result = await grantExtraAttempt(
        app,
        request.staffMember!,
        user,
        request.params.signerId,
        request.body.note,
      );
      return { data: result };
    },
  );
}
