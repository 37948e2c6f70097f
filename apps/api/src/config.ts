import { countryCodeSchema } from '@provee/domain';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'debe empezar con postgres:// o postgresql://')
    .optional(),
  COUNTRY: countryCodeSchema.default('do'),
  APP_NAME: z.string().min(1).default('Provee'),
  SUPPORT_CHAT_NUMBER: z.string().regex(/^\+?\d{8,15}$/, 'debe ser un número de teléfono').default('18095550100'),
  ADVISOR_PHONE: z.string().regex(/^\+?\d{8,15}$/, 'debe ser un número de teléfono').default('+18095550101'),
  PRIVACY_NOTICE_URL: z.url().default('https://provee.example/aviso-de-privacidad'),
  APP_STORE_URL: z.url().default('https://play.google.com/store/apps/details?id=example.provee'),
  PUBLIC_SITE_URL: z.url().default('https://provee.example'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.url())),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  TRUST_PROXY: bool.default(false),
  OPS_API_KEY: z.string().min(16, 'debe tener al menos 16 caracteres').optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
});

export type Env = z.input<typeof envSchema>;

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** Parses the environment once. A wrong value names the variable and stops start-up. */
export function loadConfig(env: Record<string, string | undefined>) {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Configuración inválida:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && !config.OPS_API_KEY) {
    throw new ConfigError('Configuración inválida:\n  OPS_API_KEY: es obligatoria en producción');
  }
  return {
    ...config,
    // Outside production a fixed key keeps the operations API usable on a fresh clone.
    OPS_API_KEY: config.OPS_API_KEY ?? 'provee-dev-ops-key-not-for-production',
  };
}
