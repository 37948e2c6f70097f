import type { PolicyVersionView } from '@provee/domain';
import { versionBadges } from '../../lib/policy-labels.js';

/** 'Vigente', 'En sombra', 'Publicada', 'Borrador' or 'Descartada'. */
export function VersionBadges({ version }: { version: Pick<PolicyVersionView, 'status' | 'live' | 'shadow'> }) {
  return (
    <>
      {versionBadges(version).map(([text, tone]) => (
        <span key={text} className={tone === 'neutral' ? 'bo-badge' : `bo-badge bo-badge--${tone}`}>
          {text}
        </span>
      ))}
    </>
  );
}
