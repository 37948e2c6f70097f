import { chatLink } from '@provee/domain';
import type { MouseEventHandler } from 'react';
import { useConfig } from '../lib/config.js';
import { ChatIcon } from './chat-icon.js';

interface ChatLinkProps {
  href: string;
  label: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
}

/** A button that opens a chat in the phone's messaging app (a new tab on a computer). */
export function ChatLink({ href, label, onClick }: ChatLinkProps) {
  return (
    <a className="btn btn-chat" href={href} target="_blank" rel="noopener noreferrer" onClick={onClick}>
      <ChatIcon size={22} />
      {label}
    </a>
  );
}

/** The lender's support chat, with `message` already typed in. */
export function SupportChatLink({ message, ...link }: Omit<ChatLinkProps, 'href'> & { message: string }) {
  const { supportChatNumber } = useConfig();
  return <ChatLink href={chatLink(supportChatNumber, message)} {...link} />;
}
