import type { ApplicationDetail } from '@provee/domain';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format.js';

/** Runs an action on the application, then says `success` and reloads the detail. Throws on failure. */
export type Act = (run: () => Promise<unknown>, success: string) => Promise<void>;

export interface SectionProps {
  detail: ApplicationDetail;
  act: Act;
  /** The role may act on applications (the API still decides). */
  canAct: boolean;
}

interface SectionFrame {
  id: string;
  title: string;
  /** Tables that need the page's whole width. */
  wide?: boolean;
  children: ReactNode;
}

export function Section({ id, title, wide, children }: SectionFrame) {
  return (
    <section className={wide ? 'bo-card bo-card--wide' : 'bo-card'} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A definition list of label → value (`bo-facts` unless `className` says); empty values read '—'. */
export function Facts({ items, className = 'bo-facts' }: { items: [string, ReactNode][]; className?: string }) {
  return (
    <dl className={className}>
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

export const yesNo = (value: boolean) => (value ? 'Sí' : 'No');

/** A record's row, headed by when the record was made. */
export function DatedRow({ at, children }: { at: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row" className="bo-nowrap">
        {formatDateTime(at)}
      </th>
      {children}
    </tr>
  );
}
