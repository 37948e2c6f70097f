// Reminders that bring back applicants who stopped before the password, and guarantors and
// signers whose links expire (issue 34): the sweep, the resume links, the funnel's counts.
export { reminderMessages } from './applicant-reminders.js';
export { REMINDERS_JOB, remindersJob } from './reminders-job.js';
export { reminderCounts } from './reminders.store.js';
export { resumeLinkRoutes } from './resume.routes.js';
export { sendApplicantReminders } from './applicant-reminders.js';
