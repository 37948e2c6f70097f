import { t } from '../lib/copy.js';
import type { UiState } from '../lib/ui-state.js';
import { Button } from './button.js';
import { Modal } from './modal.js';

/** '¡Parece que hubo un error!' with the server's words; closing clears the error. */
export function ErrorModal({ error, onClose }: { error: UiState['error']; onClose: () => void }) {
  return (
    <Modal open={error !== null} title={t('error.title')} onClose={onClose}>
      <p className="modal-text">{error?.message}</p>
      <Button onClick={onClose}>
        {error?.buttonLabel === 'Continuar' ? t('common.continue') : t('common.understood')}
      </Button>
    </Modal>
  );
}
