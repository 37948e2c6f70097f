import { z } from 'zod';
import { COUNTRY_CODES } from './country.js';

/** What the browser may know, served by GET /api/v1/config (SPEC §3 country config + §9 values). */
export const publicConfigSchema = z.object({
  appName: z.string(),
  supportChatNumber: z.string(),
  advisorPhone: z.string(),
  privacyNoticeUrl: z.string(),
  appStoreUrl: z.string(),
  publicSiteUrl: z.string(),
  /** Advisor-welcome video (BUILTIN_ADVISOR_VIDEO, advisor-video.ts, unless the lender set its own); null shows none. */
  advisorVideoUrl: z.string().nullable(),
  /** Where the browser learns its public IP (SPEC §7 external lookup); fallback '{ip}'. */
  ipLookupUrl: z.string(),
  /** The operations API key the web app may use for lead assignment (public by nature). */
  webLeadApiKey: z.string(),
  /** The /dev tools are on (simulated phone, SMS outbox): the app shows a 'Modo de prueba' banner. The server always says; absent means off. */
  testMode: z.boolean().optional(),
  /** Contracts are sealed with a development certificate (no CONTRACT_SEAL_P12_FILE; never in production): the banner says so. */
  developmentSeal: z.boolean().optional(),
  country: z.object({
    code: z.enum(COUNTRY_CODES),
    locale: z.string(),
    currency: z.enum(['DOP', 'MXN']),
    phonePrefix: z.string(),
    taxId: z.object({
      label: z.string(),
      length: z.number().int(),
      format: z.boolean(),
      generated: z.boolean(),
      lookupUrl: z.string(),
    }),
    storeType: z.string(),
    neighborhoodLabel: z.string(),
    hasZipCode: z.boolean(),
    showCompanyName: z.boolean(),
    addressSearchCountry: z.string(),
    timeZone: z.string(),
  }),
});

export type PublicConfig = z.infer<typeof publicConfigSchema>;
