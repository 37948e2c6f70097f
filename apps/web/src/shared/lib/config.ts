import { publicConfigRoute, type PublicConfig } from '@provee/domain';
import { createContext, useContext } from 'react';

/**
 * The server embeds the public config in index.html (no round trip on 3G); the Vite dev
 * server has no such tag, so there the app asks GET /api/v1/config. The server validates
 * this document against its schema before sending it; the browser does not ship zod for it.
 */
export async function loadPublicConfig(): Promise<PublicConfig> {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="app-config"]');
  if (meta?.content) return JSON.parse(meta.content) as PublicConfig;
  const response = await fetch(publicConfigRoute.path);
  if (!response.ok) throw new Error(`config ${response.status}`);
  return (await response.json()) as PublicConfig;
}

export const ConfigContext = createContext<PublicConfig | null>(null);

export function useConfig(): PublicConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigContext');
  return config;
}
