import {
  contractEvidenceCall,
  contractPdfCall,
  signContractCall,
  signingLinkCall,
  verificationStatusCall,
} from '@provee/domain';
import { requestEvidence } from '../../client-address.js';
import { bearerRoute, register } from '../../contract/register.js';
import { identityRoutes, verificationStatus } from '../identity/index.js';
import type { App } from '../../types.js';
import { contractDocument } from './contract.js';
import { signingDeps } from './deps.js';
import { contractEvidence } from './evidence.js';
import { linkView } from './links.js';
import { signingLink } from './route-parts.js';
import { signContract } from './sign.js';
import { signerAccess } from './signer-access.js';
import { heldStatusRequests } from './status-wait.js';

/** The signing screens' calls (SPEC §2.4, §7), with the signing link's token. */
export async function signingRoutes(app: App): Promise<void> {
  const deps = signingDeps(app);
  const heldStatus = heldStatusRequests(app, deps);

  register(
    app,
    signingLinkCall,
    bearerRoute(signingLink, 'El enlace de firma: quién firma y en qué punto está'),
    async (request) => ({ data: await linkView(deps, await signerAccess(request, request.params.id)) }),
  );

  register(
    app,
    verificationStatusCall,
    bearerRoute(signingLink, 'Estado de la verificación de identidad del firmante'),
    async (request, reply) => {
      const { signer } = await signerAccess(request, request.params.id, {
        personType: request.query.person_type,
        readOnly: true,
      });
      const { wait, previous } = request.query;
      if (!wait) return { data: await verificationStatus(deps, signer) };
      // Issue 27: held until the answer is in (or `wait` seconds).
      return { data: await heldStatus(signer, { seconds: wait, previous }, { request, reply }) };
    },
  );

  // 503: the image or PDF work over its time bound or its waiting line (decision 021).
  register(
    app,
    signContractCall,
    {
      ...bearerRoute(signingLink, 'Firma autógrafa del contrato (PNG en base64) con su evidencia'),
      // A signature is about 10–100 KB of base64; the default body limit is 1 MB.
      bodyLimit: 2 * 1024 * 1024,
    },
    async (request) => {
      const access = await signerAccess(request, request.params.id, { personType: request.body.person_type });
      return {
        data: await signContract(deps, access, request.body, requestEvidence(request)),
      };
    },
  );

  register(
    app,
    contractPdfCall,
    bearerRoute(signingLink, 'El contrato en PDF (firmado cuando ya hay firmas); se abre en una ventana nueva'),
    async (request, reply) => {
      const { signer } = await signerAccess(request, request.params.id, { readOnly: true });
      const document = await contractDocument(deps, signer);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="contrato-${document.contractId}.pdf"`)
        .header('x-content-sha256', document.sha256)
        .send(document.pdf as unknown as string); // bytes as they are: no serializer runs for a Buffer
    },
  );

  register(
    app,
    contractEvidenceCall,
    bearerRoute(signingLink, 'La evidencia de la firma del contrato (JSON)'),
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id, { readOnly: true });
      return { data: await contractEvidence(deps, signer.contractId) };
    },
  );

  // Identity's calls (modules/identity) open with the same link: this gate finds their signer.
  await app.register(identityRoutes, { gate: { signingLink, signerAccess } });
}
