import { INFINITE_SCROLL_THRESHOLD_PX } from './constants';

/** Whether pages after the first `pagesShown` exist (of `pageSize` rows, `total` in all). */
export function hasMorePages(pagesShown: number, pageSize: number, total: number): boolean {
  return pagesShown * pageSize < total;
}

/** The observer's margin: the next page starts loading within 50 px of the bottom (spec 9). */
export const NEAR_BOTTOM_MARGIN = `0px 0px ${INFINITE_SCROLL_THRESHOLD_PX}px 0px`;

/**
 * Call `onNear` once the element comes within the threshold of the viewport's bottom (at once when it
 * already is: a short first page loads the next one). Returns the stop function.
 */
export function watchNearBottom(
  element: Element,
  onNear: () => void,
  Observer: typeof IntersectionObserver = IntersectionObserver,
): () => void {
  let fired = false;
  const observer = new Observer(
    (entries) => {
      if (fired || !entries.some((entry) => entry.isIntersecting)) return;
      fired = true;
      observer.disconnect();
      onNear();
    },
    { rootMargin: NEAR_BOTTOM_MARGIN },
  );
  observer.observe(element);
  return () => observer.disconnect();
}
