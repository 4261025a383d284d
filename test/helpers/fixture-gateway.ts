/**
 * Builders for the setup the integration tests share: a spell that runs one of the test's own
 * servers (test/fixtures/servers), the defined-server's definitions file, and a temp home with
 * settings and spells that a real gateway serves over stdio.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv } from './gateway-process.js';
import { fixtureServer, tempDir } from './temp.js';

export interface FixtureSpell {
  description: string;
  keywords: string[];
  /** Arguments after the server's script (the defined-server's definitions file). */
  args?: string[];
  /** The server's environment (`server.env`). */
  env?: Record<string, string>;
}

/** The text of a spell that runs the fixture server `server` with this node. */
export function fixtureSpell(name: string, server: string, spell: FixtureSpell): string {
  const env = spell.env
    ? `  env:\n${Object.entries(spell.env)
        .map(([key, value]) => `    ${key}: ${value}\n`)
        .join('')}`
    : '';
  return `name: ${name}
version: 1.0.0
description: ${spell.description}
keywords: [${spell.keywords.join(', ')}]
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([fixtureServer(server), ...(spell.args ?? [])])}
${env}`;
}

/**
 * The file the defined-server reads its tools from (see test/fixtures/servers/defined-server.ts).
 * `define` replaces it at once (a rename): the server never reads it half written.
 */
export function definitionsFile(dir: string): { file: string; define(definition: Record<string, unknown>): void } {
  const file = path.join(dir, 'defs.json');
  return {
    file,
    define(definition) {
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(definition));
      fs.renameSync(`${file}.tmp`, file);
    },
  };
}

export interface FixtureHome {
  home: { dir: string; cleanup: () => void };
  spells: string;
  /** The gateway's environment (for the CLI on the same home). */
  env: Record<string, string>;
}

/** A temp home with settings.json and a spells folder (`writeSpell` into it), and the gateway's environment on it. */
export function fixtureHome(
  settings: object = {},
  options: { env?: Record<string, string>; prefix?: string } = {},
): FixtureHome {
  const home = tempDir(options.prefix);
  fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify(settings));
  return {
    home,
    spells: path.join(home.dir, 'spells'),
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, options.env),
  };
}

/** A real gateway over stdio serving `fixture`'s spells (and no imported ones); `nodeArgs` as connectStdio's. */
export function connectFixture(fixture: FixtureHome, nodeArgs: string[] = []): ReturnType<typeof connectStdio> {
  return connectStdio(['--spells', fixture.spells, '--no-imports'], fixture.env, nodeArgs);
}

/** Every file below `dir`, at any depth. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}
