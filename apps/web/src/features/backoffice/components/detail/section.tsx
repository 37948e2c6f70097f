import type { ApplicationDetail } from '@provee/domain';
import type { ReactNode } from 'react';

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

/** A definition list of label → value; empty values read '—'. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="bo-facts">
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
