import { t } from '../../../shared/lib/copy.js';
import { Button } from '../../../shared/ui/button.js';
import { SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Modal } from '../../../shared/ui/modal.js';
import { s } from '../lib/copy.js';

/** 'Contactar a soporte': the support chat with a text saying what happened. */
export function SigningSupportLink({ text }: { text: string }) {
  return <SupportChatLink message={text} label={s('support.button')} />;
}

interface SupportModalProps {
  open: boolean;
  title: string;
  text: string;
  /** The chat's prefilled text. */
  chat: string;
  onClose: () => void;
}

/** A dead end of the signing flow (new link needed, already signed, no attempts): say so and offer a person. */
export function SupportModal({ open, title, text, chat, onClose }: SupportModalProps) {
  return (
    <Modal open={open} title={title} onClose={onClose}>
      <p className="modal-text">{text}</p>
      <SigningSupportLink text={chat} />
      <Button variant="secondary" onClick={onClose}>
        {t('common.close')}
      </Button>
    </Modal>
  );
}

/** The signing flow's dead ends, by name. */
export type SigningNotice = 'refused' | 'signed' | 'attempts';

const NOTICES = {
  refused: { title: 'link.title', text: 'link.text', chat: 'link.chat' },
  signed: { title: 'signed.title', text: 'signed.text', chat: 'signed.chat' },
  attempts: { title: 'attempts.modalTitle', text: 'attempts.text', chat: 'attempts.chat' },
} as const;

/**
 * 'refused': the contract must be signed from a new link (update the app or ask the analyst);
 * 'signed': the contract was already signed; 'attempts': 'Intentos no disponibles'.
 */
export function SigningNoticeModal({ notice, onClose }: { notice: SigningNotice | null; onClose: () => void }) {
  const copy = NOTICES[notice ?? 'refused'];
  return (
    <SupportModal
      open={notice !== null}
      title={s(copy.title)}
      text={s(copy.text)}
      chat={s(copy.chat)}
      onClose={onClose}
    />
  );
}
