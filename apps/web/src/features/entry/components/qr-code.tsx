import { renderSVG } from 'uqr';

/** Loaded only on wide screens (a computer), where the user scans it with the phone. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const svg = renderSVG(value, { border: 2 });
  return (
    <img
      className="qr-code"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={200}
      height={200}
    />
  );
}
