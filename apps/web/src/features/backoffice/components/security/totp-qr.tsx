import { renderSVG } from 'uqr';

/** The otpauth:// address as a QR code, for the authenticator app's camera. */
export function TotpQr({ uri }: { uri: string }) {
  const svg = renderSVG(uri, { border: 2 });
  return (
    <img
      className="bo-qr"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt="Código QR para tu aplicación de autenticación"
      width={180}
      height={180}
    />
  );
}
