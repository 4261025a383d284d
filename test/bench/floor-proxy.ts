/**
 * The floor of `npm run bench:proxy`: the least a JSON-RPC gateway in its own process does per
 * call, and nothing else. It starts one server-everything over stdio, answers `activate_power`
 * itself, and passes every other line on after parsing it, stripping the `everything__` prefix
 * from a tool name and serializing it again; the server's lines come back the same way. No
 * validation, recording, hints, sessions or durability: what the bench's 'floor stdio' row gives
 * is what any proxy costs on the machine, the bound a gateway's figures are read against.
 * Run by the bench as `node out/test/bench/floor-proxy.js SERVER_ENTRY`.
 */
import { spawn } from 'node:child_process';
import * as readline from 'node:readline';

const PREFIX = 'everything__';

interface Message {
  id?: unknown;
  method?: string;
  params?: { name?: string };
}

const serverEntry = process.argv[2];
if (!serverEntry) {
  process.stderr.write('usage: floor-proxy.js SERVER_ENTRY (the path of server-everything dist/index.js)\n');
  process.exit(2);
}

const server = spawn(process.execPath, [serverEntry, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
server.on('exit', () => process.exit(0));
process.stdin.on('end', () => server.kill());

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as Message;
  const name = message.method === 'tools/call' ? message.params?.name : undefined;
  if (name === 'activate_power') {
    process.stdout.write(
      JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'active' }] } }) +
        '\n',
    );
    return;
  }
  if (name?.startsWith(PREFIX)) message.params!.name = name.slice(PREFIX.length);
  server.stdin.write(JSON.stringify(message) + '\n');
});

readline.createInterface({ input: server.stdout }).on('line', (line) => {
  process.stdout.write(JSON.stringify(JSON.parse(line)) + '\n');
});
