import { HELP_CHAT_TEXT, chatLink } from '@provee/domain';
import { t } from '../lib/copy.js';
import { ChatIcon } from './chat-icon.js';

/** Floating chat button on every screen, prefilled with 'Tengo dudas con mi registro'. */
export function HelpButton({ supportNumber }: { supportNumber: string }) {
  return (
    <a
      className="help-button"
      href={chatLink(supportNumber, HELP_CHAT_TEXT)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('help.label')}
      title={t('help.label')}
    >
      <ChatIcon />
    </a>
  );
}
