import { useEffect, type ReactNode } from 'react';
import { useConfig } from '../lib/config.js';

/** One screen: sets the tab title and gives the content its heading. */
export function Page({ title, heading, children }: { title: string; heading?: ReactNode; children: ReactNode }) {
  const { appName } = useConfig();
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
  return (
    <section className="page">
      {heading !== undefined && <h1 className="page-title">{heading}</h1>}
      {children}
    </section>
  );
}
