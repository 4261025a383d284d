/**
 * The gateway process the VS Code extension starts (over node IPC, by vscode-languageclient):
 * `node extension-main.js --node-ipc [--demo-servers DIR]`.
 */
import { createConnection } from 'vscode-languageserver/node';
import { GatewayRpc } from './rpc/rpc-server.js';
import { VERSION } from './version.js';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const connection = createConnection();
new GatewayRpc(connection, { env: process.env, demoModules: argument('--demo-servers'), version: VERSION }).listen();
