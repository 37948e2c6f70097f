/**
 * What a refused save said about one input, under it; `describedBy` joins its id (and a hint's) for
 * the input's aria-describedby, and `invalid` marks the input.
 */
export function fieldA11y(id: string, error: string | undefined, hintId?: string) {
  const described = [hintId, error && `${id}-error`].filter(Boolean).join(' ');
  return {
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(described ? { 'aria-describedby': described } : {}),
  };
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="bo-policy-error" id={`${id}-error`}>
      {message}
    </p>
  );
}
