import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSecurityPolicy, dashboardHtml, newNonce } from '../../client/dashboard-html.js';

const assets = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/dashboard.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/dashboard.css',
};

test('the CSP denies everything but nonce-tagged scripts and the extension resources', () => {
  const csp = contentSecurityPolicy(assets.cspSource, 'abc');
  assert.match(csp, /^default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc'(;|$)/);
  assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net 'nonce-abc'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
});

test('the page loads its script and style by webview URI, each with the nonce', () => {
  const html = dashboardHtml(assets, 'n0nce');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*'nonce-n0nce'/);
  assert.match(
    html,
    /<script nonce="n0nce" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\/dashboard\.js"><\/script>/,
  );
  assert.match(html, /<link rel="stylesheet" nonce="n0nce" href="[^"]+dashboard\.css">/);
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'no inline script');
});

test('each load gets a fresh, unguessable nonce', () => {
  const a = newNonce();
  assert.match(a, /^[A-Za-z0-9_-]{24}$/);
  assert.notEqual(a, newNonce());
  assert.notEqual(dashboardHtml(assets), dashboardHtml(assets));
});
