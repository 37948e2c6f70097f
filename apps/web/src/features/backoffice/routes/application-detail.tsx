import type { ApplicationDetail } from '@provee/domain';
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { applications } from '../api.js';
import { AddressSection } from '../components/detail/address-section.js';
import { BureauSection } from '../components/detail/bureau-section.js';
import { ConsentsSection } from '../components/detail/consents-section.js';
import { ContactsSection } from '../components/detail/contacts-section.js';
import { MessagesSection } from '../components/detail/messages-section.js';
import { ContractSection } from '../components/detail/contract-section.js';
import { GuarantorsSection } from '../components/detail/guarantors-section.js';
import { IdentitySection } from '../components/detail/identity-section.js';
import { LenderDecisionSection } from '../components/detail/lender-decision-section.js';
import { BusinessSection, PersonSection } from '../components/detail/person-section.js';
import { Facts, type Act } from '../components/detail/section.js';
import { TimelineSection } from '../components/detail/timeline-section.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDateTime } from '../lib/format.js';
import { countryName, statusName, stepName } from '../lib/labels.js';
import { useCan } from '../lib/staff-context.js';
import { useResource } from '../lib/use-resource.js';

const fullName = (person: { name: string | null; lastname: string | null; maternal_lastname: string | null }) =>
  [person.name, person.lastname, person.maternal_lastname].filter(Boolean).join(' ');

/** /backoffice/applications/:applicationId: everything recorded about one application. */
export function ApplicationDetailRoute() {
  const { applicationId = '' } = useParams();
  const can = useCan();
  const detail = useResource(applicationId, () => applications.detail(applicationId));
  const [flash, setFlash] = useState('');
  const { reload } = detail;
  const act = useCallback<Act>(
    async (run, success) => {
      setFlash('');
      await run();
      setFlash(success);
      reload();
    },
    [reload],
  );
  const data = detail.data;
  const name = data ? fullName(data.person) || 'Solicitud sin nombre' : 'Solicitud';
  useTitle(name);

  return (
    <article aria-labelledby="bo-detail-title" className="bo-detail">
      <p>
        <Link to="/backoffice">← Solicitudes</Link>
      </p>
      <h1 id="bo-detail-title">{name}</h1>
      {/* Always in the page, so screen readers hear the result of an action. */}
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      <ErrorMessage error={detail.error} />
      {!data && detail.loading && <Loading />}
      {data && (
        <>
          <Facts
            className="bo-summary"
            items={[
              ['Paso', stepName(data.next_step)],
              ['Estado', statusName(data.status)],
              ['País', countryName(data.country)],
              ['Teléfono', data.phone],
              ['Origen', [data.utm.source, data.utm.medium, data.utm.campaign].filter(Boolean).join(' / ')],
              ['Creada', formatDateTime(data.created_at)],
              ['Última actividad', formatDateTime(data.updated_at)],
            ]}
          />
          <Sections data={data} act={act} canAct={can('actOnApplications')} canSeeImages={can('readSensitive')} />
        </>
      )}
    </article>
  );
}

function Sections({
  data,
  act,
  canAct,
  canSeeImages,
}: {
  data: ApplicationDetail;
  act: Act;
  canAct: boolean;
  canSeeImages: boolean;
}) {
  const props = { detail: data, act, canAct };
  return (
    <div className="bo-sections">
      <PersonSection detail={data} />
      <BusinessSection detail={data} />
      <AddressSection {...props} />
      <ConsentsSection detail={data} />
      <BureauSection {...props} />
      <GuarantorsSection {...props} />
      <LenderDecisionSection {...props} />
      {/* Images need both: the role allows it and the API says this answer is unmasked. */}
      <IdentitySection {...props} canSeeImages={canSeeImages && data.sensitive_visible} />
      <ContractSection {...props} />
      <ContactsSection detail={data} />
      <MessagesSection detail={data} />
      <TimelineSection detail={data} />
    </div>
  );
}
