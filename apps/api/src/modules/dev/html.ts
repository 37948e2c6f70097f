export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A bare page for testers: no script and no inline style, so the app's CSP holds here too. */
export function devPage(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/dev/dev.css"></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export const DEV_CSS = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f5fa;color:#1d1d2b}
main{max-width:640px;margin:0 auto;padding:16px}h1{font-size:1.4rem}
ul{list-style:none;padding:0}li{background:#fff;border-radius:10px;padding:12px;margin:8px 0}
.meta{color:#555;font-size:.85rem}.body{font-size:1.05rem;margin-top:4px}
form{display:flex;flex-direction:column;gap:8px;background:#fff;padding:12px;border-radius:10px}
label{display:flex;flex-direction:column;gap:4px;font-weight:600;font-size:.9rem}input,select{font:inherit;padding:10px;border:1px solid #bbb;border-radius:8px}
li form{padding:8px 0 0}
button{font:inherit;font-weight:600;padding:12px;border:0;border-radius:999px;background:#3050ff;color:#fff}
.notice{background:#e6f7ec;padding:10px;border-radius:8px}`;
