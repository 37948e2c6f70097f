import { BUILTIN_ADVISOR_VIDEO, getCountry, type PublicConfig } from '@provee/domain';
import type { Config } from '../../config.js';

export function publicConfig(config: Config): PublicConfig {
  return {
    appName: config.APP_NAME,
    supportChatNumber: config.SUPPORT_CHAT_NUMBER,
    advisorPhone: config.ADVISOR_PHONE,
    privacyNoticeUrl: config.PRIVACY_NOTICE_URL,
    appStoreUrl: config.APP_STORE_URL,
    publicSiteUrl: config.PUBLIC_SITE_URL,
    advisorVideoUrl:
      config.ADVISOR_VIDEO_URL === 'none' ? null : (config.ADVISOR_VIDEO_URL ?? BUILTIN_ADVISOR_VIDEO.url),
    ipLookupUrl: config.IP_LOOKUP_URL,
    webLeadApiKey: config.WEB_LEAD_API_KEY,
    testMode: config.TEST_MODE,
    developmentSeal: !config.CONTRACT_SEAL_P12_FILE,
    country: getCountry(config.COUNTRY),
  };
}
