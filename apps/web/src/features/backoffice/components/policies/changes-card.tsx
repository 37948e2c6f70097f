import type { PolicyDetailView } from '@provee/domain';

/** What this version changes from the live one, rule by rule, in words (the API's diff). */
export function ChangesCard({ detail }: { detail: PolicyDetailView }) {
  const changes = detail.changes_from_live;
  return (
    <section className="bo-card" aria-labelledby="bo-policy-changes">
      <h2 id="bo-policy-changes">Cambios frente a la versión vigente ({detail.live_label})</h2>
      {detail.live ? (
        <p className="bo-muted">Esta es la versión vigente.</p>
      ) : changes.length === 0 ? (
        <p className="bo-muted">Sin cambios: decide igual que la versión vigente.</p>
      ) : (
        <ul className="bo-policy-changes">
          {changes.map((change) => (
            <li key={change.what}>
              <strong>{change.what}:</strong> <span className="bo-policy-before">{change.before}</span> →{' '}
              <span className="bo-policy-after">{change.after}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
