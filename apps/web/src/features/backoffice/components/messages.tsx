import { useEffect } from 'react';
import type { BackofficeError } from '../api.js';

/** What a failed call said, where it failed (with the fields the API named, if any). */
export function ErrorMessage({ error, id }: { error: BackofficeError | string | null | undefined; id?: string }) {
  if (!error) return null;
  if (typeof error === 'string')
    return (
      <p className="bo-error" role="alert" id={id}>
        {error}
      </p>
    );
  // An issue that only repeats the message (a single-field refusal) is not said twice.
  const issues = error.issues.filter((issue) => issue.message !== error.readableMessage);
  return (
    <div className="bo-error" role="alert" id={id}>
      <p>{error.readableMessage}</p>
      {issues.length > 0 && (
        <ul>
          {issues.map((issue) => (
            <li key={`${issue.field}:${issue.message}`}>{issue.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Loading({ what = 'Cargando…' }: { what?: string }) {
  return (
    <p className="bo-muted" role="status">
      {what}
    </p>
  );
}

/** The tab's title follows the screen, so staff with many tabs find the right one. */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Provee Back office`;
  }, [title]);
}
