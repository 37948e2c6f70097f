import { template as do202611 } from './do-2026-11.1.js';
import { template as mx202611 } from './mx-2026-11.1.js';
import type { ContractTemplate } from './types.js';

/** The template each country signs with today. Older versions stay in this folder, unchanged. */
export const CURRENT_TEMPLATES: Record<'do' | 'mx', ContractTemplate> = { do: do202611, mx: mx202611 };

export const CONTRACT_TEMPLATE_VERSIONS: Record<'do' | 'mx', string> = {
  do: CURRENT_TEMPLATES.do.version,
  mx: CURRENT_TEMPLATES.mx.version,
};

export type { Block, ContractTemplate } from './types.js';
