import type { Page } from '@playwright/test';

/**
 * Small screens, checked on every screen (issue 8, item 6): no select cuts the text of a choice,
 * and the floating help button must never cover a control or a label's text (issue 8, item 6).
 * Installed on every page by the `page` fixture: after each change of the screen settles, the
 * page measures where its controls are at the two resting positions of a screen (scrolled to
 * the top, as it opens, and to the bottom, where the last buttons are) and reports any control
 * whose box meets the help button's. Nothing scrolls, so the test driving the page is not
 * disturbed. A control only partly inside the viewport at the top is on its way under the
 * fold, not under the button: the bottom position shows it whole. A fixed button with an opaque
 * fixed band of its own (issue 27) hides what scrolls under the band: the screen's visible area
 * starts below the band, and a control there is under the band, out of view, not under the button.
 */
function installChecker(): void {
  const CONTROLS =
    'a[href], button, input:not([type=hidden]), select, textarea, label, [role=button], [role=checkbox], [role=combobox], [role=option]';
  const report = (window as unknown as { __helpOverlap: (message: string) => void }).__helpOverlap;
  const reported = new Set<string>();

  const boxesOf = (element: Element): DOMRect[] => {
    // A label spans the column; what must stay readable is its text.
    if (element.tagName === 'LABEL') {
      const range = document.createRange();
      range.selectNodeContents(element);
      return Array.from(range.getClientRects());
    }
    return [element.getBoundingClientRect()];
  };

  const check = (): string[] => {
    const found: string[] = [];
    const help = document.querySelector('.help-button');
    // A dialog or the loading overlay covers the screen, the help button included.
    if (!help || document.querySelector('[role="dialog"], .loading-overlay')) return found;
    const button = help.getBoundingClientRect();
    // A fixed button stays where it is; any other one moves with the page.
    const fixed = getComputedStyle(help).position === 'fixed';
    // Its band: a fixed, opaque ancestor as wide as the screen's column, covering the button.
    let band: Element | null = help.parentElement;
    while (band && band !== document.body) {
      const style = getComputedStyle(band);
      const box = band.getBoundingClientRect();
      const opaque = style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent';
      if (style.position === 'fixed' && opaque && box.top <= button.top && box.bottom >= button.bottom) break;
      band = band.parentElement;
    }
    const viewTop = fixed && band && band !== document.body ? band.getBoundingClientRect().bottom : 0;
    const scroller = document.scrollingElement ?? document.documentElement;
    const maxScroll = Math.max(0, scroller.scrollHeight - window.innerHeight);
    const positions = maxScroll > 0 ? [['top', 0] as const, ['bottom', maxScroll] as const] : [['top', 0] as const];
    for (const element of Array.from(document.querySelectorAll(CONTROLS))) {
      if (help.contains(element) || element.contains(help)) continue;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      for (const box of boxesOf(element)) {
        if (box.width <= 1 || box.height <= 1) continue;
        for (const [name, scrollY] of positions) {
          const top = box.top + window.scrollY - scrollY;
          const bottom = top + box.height;
          if (top < viewTop || bottom > window.innerHeight) continue;
          const buttonTop = fixed ? button.top : button.top + window.scrollY - scrollY;
          const meets =
            box.left < button.right && box.right > button.left && top < buttonTop + button.height && bottom > buttonTop;
          if (!meets) continue;
          const text = (element.textContent || element.getAttribute('aria-label') || '').trim().slice(0, 40);
          const message = `the help button covers <${element.tagName.toLowerCase()}> "${text}" on ${location.pathname} (scrolled to the ${name}, ${window.innerWidth}×${window.innerHeight})`;
          found.push(message);
          if (!reported.has(message)) {
            reported.add(message);
            report(message);
          }
        }
      }
    }
    // A select shows its choice whole ('Selecc…' was cut). What the closed select shows is
    // checked; the phone's own picker lists the options at full width.
    const canvas = document.createElement('canvas').getContext('2d')!;
    for (const select of Array.from(document.querySelectorAll('select'))) {
      if (!select.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const style = getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      // The native arrow takes about 24 px of the inner width.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
      const option = select.selectedOptions[0];
      if (option && canvas.measureText(option.text).width > room) {
        const message = `the select "${select.labels[0]?.textContent ?? select.name}" cuts "${option.text}" on ${location.pathname} (${window.innerWidth}×${window.innerHeight})`;
        found.push(message);
        if (!reported.has(message)) {
          reported.add(message);
          report(message);
        }
      }
    }
    return found;
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  };
  (window as unknown as { __checkHelpOverlap: () => string[] }).__checkHelpOverlap = check;
  const start = () => {
    new MutationObserver(soon).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    window.addEventListener('resize', soon);
    soon();
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
}

/** Reports go to `onOverlap` (the fixture fails the test with them). */
export async function watchHelpButton(page: Page, onOverlap: (message: string) => void): Promise<void> {
  await page.exposeFunction('__helpOverlap', onOverlap);
  await page.addInitScript(installChecker);
}

/** The same check, now (where screenshots are taken and when a test ends): what it found. */
export async function checkHelpButton(page: Page): Promise<string[]> {
  if (page.isClosed()) return [];
  return page
    .evaluate(() => (window as unknown as { __checkHelpOverlap?: () => string[] }).__checkHelpOverlap?.() ?? [])
    .catch(() => []);
}
