/** The dashboard webview's page: a strict CSP with a per-load nonce, assets by webview URI only. No `vscode` import. */
import { randomBytes } from 'node:crypto';

export interface DashboardAssets {
  /** `webview.cspSource` */
  cspSource: string;
  /** `asWebviewUri` of dist/webview/dashboard.js and dashboard.css */
  scriptUri: string;
  styleUri: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

export function dashboardHtml(assets: DashboardAssets, nonce: string = newNonce()): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(assets.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${escapeAttribute(assets.styleUri)}">
<title>Grimoire</title>
</head>
<body>
<main id="app" aria-busy="true">Loading the Grimoire dashboard...</main>
<script nonce="${nonce}" src="${escapeAttribute(assets.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
