import { expect } from 'vitest';
import type { TestApp } from './test-app.js';
import type { staffSession } from './staff.js';

type Staff = Awaited<ReturnType<typeof staffSession>>;

/** The policy lab's calls as staff make them (issue 33): versions, a saved draft, a publish. */
export function lab(t: TestApp) {
  const call = (who: Staff, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/backoffice${url}`, headers: who.headers, ...(payload ? { payload } : {}) });
  const versions = async (who: Staff) =>
    (await call(who, 'GET', '/policies')).json().data.versions as {
      id: string;
      label: string;
      live: boolean;
      shadow: boolean;
      status: string;
      number: number;
    }[];
  const live = async (who: Staff) => (await versions(who)).find((version) => version.live)!;
  /** A draft of the live version with some eligibility rules changed, saved. */
  const draft = async (who: Staff, eligibility: Record<string, unknown>) => {
    const created = await call(who, 'POST', '/policies', {});
    expect(created.statusCode, created.body).toBe(201);
    const { id, revision, document } = created.json().data;
    const { version: _version, ...rest } = document;
    const saved = await call(who, 'PUT', `/policies/${id}`, {
      revision,
      document: { ...rest, eligibility: { ...rest.eligibility, ...eligibility } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return saved.json().data as {
      id: string;
      revision: number;
      label: string;
      document: Record<string, unknown>;
      changes_from_live: unknown[];
    };
  };
  const publish = (who: Staff, policy: { id: string; revision: number }, mode: 'live' | 'shadow' = 'live') =>
    call(who, 'POST', `/policies/${policy.id}/publish`, { revision: policy.revision, mode });
  return { call, versions, live, draft, publish };
}
