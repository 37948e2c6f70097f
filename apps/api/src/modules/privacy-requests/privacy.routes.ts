import {
  COUNTRIES,
  countryToday,
  formatDay,
  filePrivacyRequestCall,
  myDataCall,
  myDataPdfCall,
  myPrivacyRequestsCall,
  type FilePrivacyRequestBody,
} from '@provee/domain';
import { bearerRoute, register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { requireToken } from '../auth/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { exportApplicantData } from '../privacy/index.js';
import { ownedUser } from '../users/index.js';
import { renderMyDataPdf } from './my-data-pdf.js';
import { filePrivacyRequest, myPrivacyRequests } from './requests.service.js';

/**
 * "Mis datos" (issue 31): the shopkeeper, with the token of their proven phone, sees what is held
 * about them, downloads it, files requests over it and follows them. Every look is audited.
 */
export async function privacyRoutes(app: App): Promise<void> {
  const exportOf = async (applicationId: string) => {
    const data = await exportApplicantData(app, app.db, applicationId);
    if (!data) throw new AppError(404, 'APPLICATION_NOT_FOUND', 'not found', 'Aún no tienes un registro.');
    return data;
  };
  const looked = (applicationId: string, format: string) =>
    appendAuditEvent(app.db, {
      applicationId,
      actor: `user:${applicationId}`,
      type: 'privacy.data_viewed',
      payload: { format },
      at: app.clock(),
    });

  register(app, myDataCall, bearerRoute(requireToken, 'Lo que guardamos del solicitante (JSON)'), async (request) => {
    const user = await ownedUser(request, request.params.id);
    const data = await exportOf(user.id);
    await looked(user.id, 'json');
    return { data };
  });

  register(
    app,
    myDataPdfCall,
    bearerRoute(requireToken, 'Lo que guardamos del solicitante (PDF)'),
    async (request, reply) => {
      const user = await ownedUser(request, request.params.id);
      const data = await exportOf(user.id);
      const country = COUNTRIES[app.config.COUNTRY];
      const pdf = await renderMyDataPdf(data, formatDay(countryToday(country, app.clock()), country.locale), country);
      await looked(user.id, 'pdf');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="mis-datos.pdf"')
        .header('cache-control', 'private, no-store')
        .send(pdf as unknown as string); // bytes as they are: no serializer runs for a Buffer
    },
  );

  register(
    app,
    myPrivacyRequestsCall,
    bearerRoute(requireToken, 'Solicitudes de privacidad del solicitante'),
    async (request) => {
      const user = await ownedUser(request, request.params.id);
      return { data: { items: await myPrivacyRequests(app, user.id) } };
    },
  );

  register(
    app,
    filePrivacyRequestCall,
    bearerRoute(requireToken, 'Pide rectificación, cancelación u oposición'),
    async (request, reply) => {
      const user = await ownedUser(request, request.params.id);
      const created = await filePrivacyRequest(app, user.id, request.body as FilePrivacyRequestBody);
      return reply.code(201).send({ data: created });
    },
  );
}
