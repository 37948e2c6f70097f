/** Business constants and limits of SPEC §9. */
export const REQUEST_TIMEOUT_MS = 150_000;
/** The shorter override SPEC §9 mentions, for calls that must not hang a screen. */
export const REQUEST_TIMEOUT_SHORT_MS = 30_000;

export const PHONE_MAX_LENGTH = 10;
export const SECURITY_CODE_LENGTH = 6;
export const NIP_LENGTH = 4;
export const PASSWORD_LENGTH = 6;

export const RESEND_WAIT_SECONDS = 60;
export const NIP_RESENT_MESSAGE_MS = 10_000;

export const DEFAULT_PHONE_PREFIX = '+1';
export const GUARANTOR_PHONE_PREFIX = '+52';
export const GUARANTOR_PHONE_LENGTH = 10;
export const FALLBACK_IP = '{ip}';

export const NAME_MAX_LENGTH = 30;
export const SURNAME_MAX_LENGTH = 25;
export const MIN_AGE_YEARS = 18;
export const BIRTH_YEAR_OPTIONS = 82;

export const ZIP_CODE_LENGTH = 5;
export const ZIP_CODE_NOT_INCLUDED = '00000';

export const REVIEW_COUNTDOWN_SECONDS = 300;
export const REVIEW_POLL_EVERY_SECONDS = 30;
export const REVIEW_FIRST_POLL_AT_SECONDS = 270;

export const WAITING_MAX_TRIES = 12;
export const WAITING_INTERVAL_MS = 5_000;

export const SIGNATURE_PEN_MIN_WIDTH = 3;
export const SIGNATURE_CANVAS = { width: 300, height: 470 } as const;

export const ADVISOR_CALL_WITHIN_MINUTES = 5;
export const PRE_APPROVED_AMOUNT = 10_000;

/** Used in the partner route when the user has no partner phone yet (SPEC §2.2). */
export const PLACEHOLDER_PARTNER_PHONE = '0000000000';

export const HELP_CHAT_TEXT = 'Tengo dudas con mi registro';
