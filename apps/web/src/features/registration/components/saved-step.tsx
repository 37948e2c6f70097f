import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { applicationState, routeForState, type StepView } from '../../../shared/lib/application-state.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { savedRegistration, type SavedRegistration } from '../api/registration.js';

/**
 * A registration step already saved, reached by going back or by its link (issue 27,
 * docs/decisions/025): what the server saved (undefined while it loads), and Continuar's way on.
 */
export function useSavedStep(view: StepView, phone: string, userId: string) {
  const navigate = useNavigate();
  const [data, setData] = useState<SavedRegistration>();
  useEffect(() => {
    if (!view.saved) return;
    let live = true;
    savedRegistration(userId).then((answer) => live && setData(answer), uiState.showError);
    return () => {
      live = false;
    };
  }, [view.saved, userId]);
  /** On to `next` (a correctable step goes screen by screen), or straight where the application stands. */
  const goOn = (next: string) => {
    const state = applicationState.get(userId);
    const editable = view.saved && view.editable;
    navigate(editable || !state ? next : routeForState(phone, state));
  };
  return { data, readOnly: view.saved && !view.editable, goOn };
}

/** What a saved step says above its fields: it can still be corrected, or it was sent for good. */
export function SavedNote({ view }: { view: StepView }) {
  if (!view.saved) return null;
  return (
    <p className="saved-note" role="note">
      {view.editable ? t('saved.editable') : t('saved.readOnly')}
    </p>
  );
}
