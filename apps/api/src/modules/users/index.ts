// What other modules use of users.
export { ownedUser, stepAnswerSchema, userParams } from './owned-user.js';
export { findUserById, findUserByPhone, taxIdSuggestion, userResponse, type UserRow } from './users.service.js';
