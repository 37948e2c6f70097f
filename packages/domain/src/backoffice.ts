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
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffPermission = keyof typeof STAFF_PERMISSIONS;

export function staffMay(role: StaffRole, permission: StaffPermission): boolean {
  return (STAFF_PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** Session and lock-out rules of the back office (the numbers). */
export const STAFF_SESSION_IDLE_MINUTES = 30;
export const STAFF_SESSION_ABSOLUTE_HOURS = 12;
export const STAFF_MAX_FAILED_LOGINS = 5;
export const STAFF_LOCK_MINUTES = 15;
export const STAFF_PASSWORD_MIN_LENGTH = 12;

/** Where an advisor's work comes from: a shopkeeper's contact request or a new lead. */
export const ADVISOR_TASK_SOURCES = ['contact', 'lead'] as const;
export type AdvisorTaskSource = (typeof ADVISOR_TASK_SOURCES)[number];
