import { SIGNATURE_CANVAS } from '@provee/domain';
import { useLayoutEffect, useState, type RefObject } from 'react';

/** Below this the box is too small for a finger, whatever the window (a very short one scrolls instead). */
const MIN_SCALE = 0.35;

/**
 * How large the signature box can be shown (CSS px per unit of the SPEC's 300×470, at most 1) so
 * that it and what comes under it (the buttons) fit the window without scrolling, upright or
 * sideways (issue 27): the box takes every touch to draw, so nothing needed may be out of sight
 * below it. Measured from the layout as it is (the header, the texts, the shell's bottom padding),
 * again when the window changes (a phone turned).
 */
export function useSignatureFit(
  screen: RefObject<HTMLElement | null>,
  area: RefObject<HTMLElement | null>,
  below: RefObject<HTMLElement | null>,
): number {
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const measure = () => {
      const box = area.current;
      const after = below.current;
      const whole = screen.current;
      // No layout (hidden, or a test's document): nothing to fit.
      if (!box || !after || !whole || box.clientWidth === 0) return;
      // What stays under the screen: the shell's bottom padding, less what the screen takes of it.
      const shell = whole.closest('.shell') ?? document.body;
      const bottomPadding =
        (parseFloat(getComputedStyle(shell).paddingBottom) || 0) +
        (parseFloat(getComputedStyle(whole).marginBottom) || 0);
      const boxRect = box.getBoundingClientRect();
      // Upright the buttons are under the box; sideways, beside it (nothing under).
      const under = Math.max(0, after.getBoundingClientRect().bottom - boxRect.bottom);
      const height = window.innerHeight - (boxRect.top + window.scrollY) - under - bottomPadding;
      const fit = Math.min(1, box.clientWidth / SIGNATURE_CANVAS.width, height / SIGNATURE_CANVAS.height);
      setScale(Math.max(MIN_SCALE, Math.floor(fit * 1000) / 1000));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [screen, area, below]);
  return scale;
}
