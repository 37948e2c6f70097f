/** Leaves the SPA for another page (SPEC §2.1: a redirection URL in state). */
export function fullPageRedirect(url: string): void {
  window.location.assign(url);
}
