/** Hands a file the page built to the browser's download (the phone's "Descargas"). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download: revoking at once cancels it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
