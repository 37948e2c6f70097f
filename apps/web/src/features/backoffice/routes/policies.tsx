import type { PolicyVersionView } from '@provee/domain';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DataTable } from '../components/data-table.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { ShadowCard } from '../components/policies/shadow-card.js';
import { VersionBadges } from '../components/policies/version-badges.js';
import { formatDateTime } from '../lib/format.js';
import { useCan } from '../lib/staff-context.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';
import { policies, shadowRun } from '../policies-api.js';
import '../components/policies/policies.css';

function VersionRow({ version }: { version: PolicyVersionView }) {
  return (
    <tr className={version.status === 'DISCARDED' ? 'bo-row--done' : undefined}>
      <th scope="row" className="bo-nowrap">
        <Link to={`/backoffice/policies/${version.id}`}>{version.label}</Link>
      </th>
      <td className="bo-nowrap">
        <VersionBadges version={version} />
      </td>
      <td className="bo-policy-description-cell">{version.description || '—'}</td>
      <td>{version.author.name}</td>
      <td className="bo-nowrap">{formatDateTime(version.created_at)}</td>
      <td>{version.published_by ?? '—'}</td>
      <td className="bo-nowrap">{formatDateTime(version.published_at)}</td>
    </tr>
  );
}

/**
 * /backoffice/policies (analysts and admins): the credit policy's versions, newest first, which one
 * decides and which runs in shadow; a new draft begins from the live version.
 */
export function PoliciesRoute() {
  useTitle('Política de crédito');
  const navigate = useNavigate();
  const can = useCan();
  const list = useResource('policies', policies.list);
  const shadow = useResource('policy-shadow', shadowRun.view);
  const [flash, setFlash] = useState('');
  const draft = useSubmit();

  const newDraft = () =>
    void draft.submit(async () => {
      const created = await policies.createDraft();
      navigate(`/backoffice/policies/${created.id}`);
    });
  const act = async (run: () => Promise<unknown>, success: string) => {
    setFlash('');
    await run();
    setFlash(success);
    list.reload();
    shadow.reload();
  };

  return (
    <section aria-labelledby="bo-policies">
      <div className="bo-toolbar">
        <h1 id="bo-policies">Política de crédito</h1>
        <button type="button" className="bo-button" disabled={draft.pending} onClick={newDraft}>
          Nuevo borrador
        </button>
      </div>
      <p className="bo-muted">
        Las reglas que deciden quién recibe crédito, por versiones. Un borrador empieza como copia de la versión
        vigente; se prueba con decisiones pasadas y lo publica una persona administradora distinta de quien lo escribió.
      </p>
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      <ErrorMessage error={draft.error} />
      <ErrorMessage error={list.error} />
      {!list.data && list.loading && <Loading />}
      {list.data && (
        <DataTable
          caption="Versiones de la política"
          columns={['Versión', 'Estado', 'Descripción', 'Autor', 'Creada', 'Publicada por', 'Publicada']}
        >
          {list.data.versions.map((version) => (
            <VersionRow key={version.id} version={version} />
          ))}
        </DataTable>
      )}
      <ErrorMessage error={shadow.error} />
      {shadow.data && <ShadowCard view={shadow.data} canStop={can('publishPolicy')} act={act} />}
    </section>
  );
}
