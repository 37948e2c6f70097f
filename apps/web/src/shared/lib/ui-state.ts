import { useSyncExternalStore } from 'react';

/** What the shell shows above every screen: spinner, error modal, full-page redirect. */
export interface UiState {
  pending: number;
  error: { message: string; buttonLabel: 'Continuar' | 'Entendido'; goTo?: string } | null;
  redirectUrl: string | null;
}

let state: UiState = { pending: 0, error: null, redirectUrl: null };
const listeners = new Set<() => void>();

function update(change: Partial<UiState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

export const uiState = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  startLoading: () => update({ pending: state.pending + 1 }),
  stopLoading: () => update({ pending: Math.max(0, state.pending - 1) }),
  /**
   * SPEC §8: the server's readable_message, else its message, else the error's own text.
   * `goTo`: where closing the modal takes the user (replace-navigation).
   */
  showError(error: unknown, options: { buttonLabel?: 'Continuar' | 'Entendido'; goTo?: string } = {}) {
    // An ended session (api-client: `reprove`): its button proves the number again, whatever the screen asked.
    const reprove = error && typeof error === 'object' ? (error as { reprove?: unknown }).reprove : undefined;
    const goTo = typeof reprove === 'string' ? reprove : options.goTo;
    const buttonLabel = typeof reprove === 'string' ? 'Continuar' : (options.buttonLabel ?? 'Entendido');
    update({ error: { message: errorText(error), buttonLabel, ...(goTo ? { goTo } : {}) } });
  },
  clearError: () => update({ error: null }),
  redirect: (url: string) => update({ redirectUrl: url }),
  reset: () => update({ pending: 0, error: null, redirectUrl: null }),
};

export function errorText(error: unknown): string {
  if (error && typeof error === 'object') {
    const { readableMessage, message } = error as { readableMessage?: string; message?: string };
    if (readableMessage) return readableMessage;
    if (message) return message;
  }
  if (typeof error === 'string' && error) return error;
  return 'Algo salió mal. Intenta de nuevo.';
}

export function useUiState(): UiState {
  return useSyncExternalStore(uiState.subscribe, uiState.get, uiState.get);
}
