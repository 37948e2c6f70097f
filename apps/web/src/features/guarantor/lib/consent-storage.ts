import type { AvalConsentStarted } from '../api/guarantor.js';

/**
 * What /verify-aval-phone needs when the guarantor comes back from the messaging app (a reload,
 * the back button): the session, the invitation token and the names. sessionStorage, this tab only.
 */
export interface StoredAvalConsent {
  session_id: string;
  token: string | null;
  user_id: string;
  collateral_id: string;
  collateralName: string;
  shopkeeperName: string;
  /** What the consent call answered: the message to send and its links, shown while pending. */
  started?: AvalConsentStarted;
}

const KEY = 'aval_consent';

export const avalConsentStorage = {
  get(): StoredAvalConsent | null {
    try {
      const stored = sessionStorage.getItem(KEY);
      const value = stored ? (JSON.parse(stored) as Partial<StoredAvalConsent>) : null;
      return value && typeof value.session_id === 'string' && value.session_id
        ? {
            session_id: value.session_id,
            token: typeof value.token === 'string' ? value.token : null,
            user_id: value.user_id ?? '',
            collateral_id: value.collateral_id ?? '',
            collateralName: value.collateralName ?? '',
            shopkeeperName: value.shopkeeperName ?? '',
            ...(value.started ? { started: value.started } : {}),
          }
        : null;
    } catch {
      return null;
    }
  },
  set(value: StoredAvalConsent): void {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(value));
    } catch {
      // Private mode or full storage: the return needs ?sessionUuid= then.
    }
  },
  /** A session that ended without the message: the next try starts a new one. */
  clear(): void {
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      // Nothing stored.
    }
  },
};
