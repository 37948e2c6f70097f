/**
 * The lender's back office: who works in it and what each role may do. The API checks these on
 * every call; the web app uses them only to hide what the role cannot use.
 */
export const STAFF_ROLES = ['advisor', 'analyst', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What a role may do. An admin may do everything an analyst may, plus manage staff accounts. */
export const STAFF_PERMISSIONS = {
  /** Find and read applications (tax id and birth date masked for advisors). */
  readApplications: ['advisor', 'analyst', 'admin'],
  /** The unmasked tax id and birth date, and identity images. */
  readSensitive: ['analyst', 'admin'],
  /** Contact requests and new leads: claim, done. */
  workAdvisorQueue: ['advisor', 'analyst', 'admin'],
  /** Guarantors, bureau retries, addresses, signing links, identity reviews and attempts. */
  actOnApplications: ['analyst', 'admin'],
  /** The funnel and the CSV exports. */
  readReports: ['analyst', 'admin'],
  manageStaff: ['admin'],
  /** The job queue: what waits, runs and failed, with the last error. */
  readJobs: ['admin'],
  /** The retention schedule (its rules and latest runs), read only (issue 31). */
  readRetention: ['admin'],
  /** The lender's systems: webhook endpoints (their secrets, deliveries, replays) and partner API keys. */
  manageIntegrations: ['admin'],
  /** Applicants' privacy requests (ARCO / Ley 172-13): read their data, rectify, erase, refuse (issue 31). */
  privacy: ['analyst', 'admin'],
  /** The credit policy's versions: read, draft, backtest (issue 33). */
  policy: ['analyst', 'admin'],
  /** Publish a version someone else wrote, make an earlier one live again, run one in shadow (four eyes). */
  publishPolicy: ['admin'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffPermission = keyof typeof STAFF_PERMISSIONS;

export function staffMay(role: StaffRole, permission: StaffPermission): boolean {
  return (STAFF_PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** Session and lock-out rules of the back office (the numbers). */
export const STAFF_SESSION_IDLE_MINUTES = 30;
export const STAFF_SESSION_ABSOLUTE_HOURS = 12;
export const STAFF_MAX_FAILED_LOGINS = 5;
/** Failed logins from one client address (any e-mail) before it is refused for the lock window: a lender's office shares one. */
export const STAFF_MAX_FAILED_LOGINS_PER_IP = 20;
/** Failed passwords for one e-mail in a day, past which even an owner with a second factor waits (NIST SP 800-63B §5.2.2). */
export const STAFF_MAX_FAILED_LOGINS_PER_DAY = 100;
export const STAFF_LOCK_MINUTES = 15;
/** NIST SP 800-63B: length, and no composition rules (a list of common and breached passwords instead). */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_MAX_LENGTH = 200;

/** Roles that cannot work without a second factor; advisors may add one. */
export const STAFF_ROLES_REQUIRING_SECOND_FACTOR = ['analyst', 'admin'] as const satisfies readonly StaffRole[];
/** Exports, identity images, contract downloads and staff management ask again after this long. */
export const STAFF_STEP_UP_MINUTES = 15;
/** Single-use codes shown once when the first second factor is enrolled (or on demand). */
export const STAFF_RECOVERY_CODE_COUNT = 10;
/** How long a password link an admin issues stays good. */
export const STAFF_PASSWORD_LINK_MINUTES = 60;

/** Where a login stands: a second factor to give, one to enrol first, or done. */
export const STAFF_LOGIN_STAGES = ['factor', 'enrol', 'active'] as const;
export type StaffLoginStage = (typeof STAFF_LOGIN_STAGES)[number];
export const STAFF_FACTOR_METHODS = ['totp', 'passkey', 'recovery_code'] as const;
export type StaffFactorMethod = (typeof STAFF_FACTOR_METHODS)[number];

/** Where an advisor's work comes from: a shopkeeper's contact request or a new lead. */
export const ADVISOR_TASK_SOURCES = ['contact', 'lead'] as const;
export type AdvisorTaskSource = (typeof ADVISOR_TASK_SOURCES)[number];

/**
 * The order of the back office's list of applications: last activity first; given a range of start
 * days, the latest started first (issue 35: the page is then the newest end of one range of the
 * start index, at any size of the history, instead of a walk through every application active since).
 * The web app's list writes the same rule out (its first chunk's byte budget); its test checks both.
 */
export type ApplicationsOrder = 'activity' | 'start';
export function applicationsOrder(filter: { from?: string | undefined; to?: string | undefined }): ApplicationsOrder {
  return filter.from || filter.to ? 'start' : 'activity';
}
