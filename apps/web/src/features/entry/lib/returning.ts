/**
 * What the landing needs for a number this tab already proved (back from a step): where the
 * application stands, and forgetting the person for another number. Loaded on demand (most
 * visitors are new) and warmed as soon as such a number shows, so the tap waits for no chunk.
 */
export { forgetPerson } from '../../../shared/lib/forget-person.js';
export { routeForPhone } from '../../../shared/lib/users-api.js';
