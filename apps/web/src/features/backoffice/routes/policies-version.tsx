import type { PolicyDetailView, PolicyVersionView } from '@provee/domain';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Facts } from '../components/detail/section.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { BacktestCard } from '../components/policies/backtest-card.js';
import { ChangesCard } from '../components/policies/changes-card.js';
import { PolicyEditor } from '../components/policies/policy-editor.js';
import { PublishCard } from '../components/policies/publish-card.js';
import { VersionBadges } from '../components/policies/version-badges.js';
import { formatDateTime } from '../lib/format.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';
import { policies } from '../policies-api.js';
import '../components/policies/policies.css';

function Summary({ detail, versions }: { detail: PolicyDetailView; versions: PolicyVersionView[] | undefined }) {
  const basedOn = versions?.find((version) => version.number === detail.based_on_number);
  return (
    <Facts
      className="bo-summary"
      items={[
        ['Estado', <VersionBadges key="badges" version={detail} />],
        ['Autor', detail.author.name],
        [
          'Basada en',
          basedOn ? (
            <Link to={`/backoffice/policies/${basedOn.id}`}>{basedOn.label}</Link>
          ) : (
            detail.based_on_number && `n.º ${detail.based_on_number}`
          ),
        ],
        ['Creada', formatDateTime(detail.created_at)],
        ['Última edición', formatDateTime(detail.updated_at)],
        // A draft has none: left out rather than a dash.
        ...(detail.published_at
          ? [['Publicada', `${formatDateTime(detail.published_at)} · ${detail.published_by ?? ''}`] as [string, string]]
          : []),
      ]}
    />
  );
}

/**
 * /backoffice/policies/:policyId: one version of the credit policy. Its rules as a form (its
 * author edits a draft), what it changes from the live version, a backtest over past decisions,
 * and, for admins, publishing it or making it live again.
 */
export function PolicyVersionRoute() {
  const { policyId = '' } = useParams();
  // Another version (its 'Basada en' link, a new draft) starts afresh: no flash or form of this one.
  return <PolicyVersion key={policyId} policyId={policyId} />;
}

function PolicyVersion({ policyId }: { policyId: string }) {
  const navigate = useNavigate();
  const detail = useResource(`policy:${policyId}`, () => policies.detail(policyId));
  // The live version's number (is making this one live a rollback?) and the labels of the others.
  const list = useResource('policies', policies.list);
  const [flash, setFlash] = useState('');
  const fork = useSubmit();
  const data = detail.data;
  useTitle(data ? `Política ${data.label}` : 'Política de crédito');

  const { reload } = detail;
  const reloadList = list.reload;
  const act = useCallback(
    async (run: () => Promise<unknown>, success: string) => {
      setFlash('');
      await run();
      setFlash(success);
      reload();
      reloadList();
    },
    [reload, reloadList],
  );
  const newDraftFromThis = () =>
    void fork.submit(async () => {
      const created = await policies.createDraft(policyId);
      navigate(`/backoffice/policies/${created.id}`);
    });

  const liveNumber = list.data?.versions.find((version) => version.live)?.number;
  return (
    <article aria-labelledby="bo-policy-title" className="bo-detail">
      <p>
        <Link to="/backoffice/policies">← Política de crédito</Link>
      </p>
      <div className="bo-toolbar">
        <h1 id="bo-policy-title">{data ? `Versión ${data.label}` : 'Versión de la política'}</h1>
        {data && data.status === 'PUBLISHED' && (
          <button
            type="button"
            className="bo-button bo-button--quiet"
            disabled={fork.pending}
            onClick={newDraftFromThis}
          >
            Nuevo borrador a partir de esta versión
          </button>
        )}
      </div>
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      <ErrorMessage error={fork.error} />
      <ErrorMessage error={detail.error} />
      {!data && detail.loading && <Loading />}
      {data && (
        <>
          <Summary detail={data} versions={list.data?.versions} />
          <ChangesCard detail={data} />
          <PublishCard detail={data} liveNumber={liveNumber} act={act} />
          {/* Keyed by revision: a saved draft comes back as a fresh form, and an old result goes. */}
          <PolicyEditor key={`${data.id}:${data.revision}:${data.status}`} detail={data} act={act} />
          {data.status !== 'DISCARDED' && <BacktestCard key={`${data.id}:${data.revision}`} detail={data} />}
        </>
      )}
    </article>
  );
}
