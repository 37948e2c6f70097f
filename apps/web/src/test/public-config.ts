import { COUNTRIES, type CountryCode, type PublicConfig } from '@provee/domain';

/** What index.html would tell the app, for a test; `country` and any field can be changed. */
export function createPublicConfig(country: CountryCode = 'do', overrides: Partial<PublicConfig> = {}): PublicConfig {
  return {
    appName: 'Provee',
    supportChatNumber: '18095550100',
    advisorPhone: '+18095550101',
    privacyNoticeUrl: 'https://provee.example/privacidad',
    appStoreUrl: 'https://store.example',
    publicSiteUrl: 'https://provee.example',
    advisorVideoUrl: null,
    ipLookupUrl: '/api/v1/ip',
    webLeadApiKey: 'web-key',
    testMode: false,
    country: COUNTRIES[country],
    ...overrides,
  };
}
