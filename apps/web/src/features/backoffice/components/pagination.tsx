/** Anterior / Siguiente: the list pages by cursor (issue 35), so there is no page number to show. */
export function Pagination({ onPrevious, onNext }: { onPrevious: (() => void) | null; onNext: (() => void) | null }) {
  return (
    <nav className="bo-pagination" aria-label="Paginación">
      <button
        type="button"
        className="bo-button bo-button--quiet"
        disabled={!onPrevious}
        onClick={onPrevious ?? undefined}
      >
        Anterior
      </button>
      <button type="button" className="bo-button bo-button--quiet" disabled={!onNext} onClick={onNext ?? undefined}>
        Siguiente
      </button>
    </nav>
  );
}
