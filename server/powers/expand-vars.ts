/** `${VAR}` / `${VAR:-default}` expansion over the string fields of a server spec. */
import { registerSecretEntries, registerSecretValue } from '../util/secrets.js';
import type { ServerSpec } from './types.js';

export type Vars = Record<string, string | undefined>;

/** Applies `fn` to every expandable string of a server spec; `where` is the dotted field path. */
export function mapServerStrings(server: ServerSpec, fn: (value: string, where: string) => string): ServerSpec {
  const mapValues = (record: Record<string, string>, prefix: string) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v, `${prefix}.${k}`)]));
  if (server.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: fn(server.command, 'server.command'),
      args: server.args.map((arg, i) => fn(arg, `server.args.${i}`)),
      env: mapValues(server.env, 'server.env'),
      ...(server.cwd !== undefined ? { cwd: fn(server.cwd, 'server.cwd') } : {}),
    };
  }
  return {
    transport: server.transport,
    url: fn(server.url, 'server.url'),
    headers: mapValues(server.headers, 'server.headers'),
  };
}

/** Values of env keys and headers that name a secret (API_KEY, Authorization, ...) are masked wherever text leaves from now on. */
export function registerServerSecrets(server: ServerSpec): void {
  registerSecretEntries(server.transport === 'stdio' ? server.env : server.headers);
}

/** Collects unset variables by name, with every field that used them, in first-seen order. */
export class MissingVars {
  private readonly uses = new Map<string, string[]>();

  add(name: string, where: string): void {
    const list = this.uses.get(name) ?? [];
    if (!list.includes(where)) list.push(where);
    this.uses.set(name, list);
  }

  problems(describe: (name: string, where: string) => string): string[] {
    return [...this.uses].map(([name, where]) => describe(name, where.join(', ')));
  }
}

/** `${NAME}`, `${NAME:-default}`, and `${secret:NAME}` (a file of Grimoire's secrets folder: shared/secret-files.ts). */
const VAR = /\$\{(?:secret:([^}]*)|([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?)\}/g;

/** A secret's value, or why it cannot be read. */
export type SecretSource = (name: string) => { ok: true; value: string } | { ok: false; message: string };

export function expandText(
  text: string,
  vars: Vars,
  onMissing: (name: string) => void,
  secrets?: SecretSource,
  onSecretProblem?: (message: string) => void,
): string {
  return text.replace(
    VAR,
    (match: string, secret: string | undefined, name: string | undefined, fallback: string | undefined) => {
      if (secret !== undefined) {
        const read = secrets?.(secret) ?? { ok: false, message: `${match} is read only in a spell file` };
        if (read.ok) {
          registerSecretValue(read.value);
          return read.value;
        }
        onSecretProblem?.(read.message);
        return '';
      }
      const value = vars[name!];
      if (fallback !== undefined) return value ? value : fallback;
      if (value === undefined) {
        onMissing(name!);
        return '';
      }
      return value;
    },
  );
}

export function expandServer(
  server: ServerSpec,
  vars: Vars,
  secrets?: SecretSource,
): { server: ServerSpec; problems: string[] } {
  const missing = new MissingVars();
  const secretProblems = new Set<string>();
  const expanded = mapServerStrings(server, (value, where) =>
    expandText(
      value,
      vars,
      (name) => missing.add(name, where),
      secrets,
      (message) => secretProblems.add(`${message} (used in ${where})`),
    ),
  );
  registerServerSecrets(expanded);
  const problems = missing.problems(
    (name, where) =>
      `environment variable ${name} is not set (used in ${where}): set it in the environment or in the spell`,
  );
  return { server: expanded, problems: [...problems, ...secretProblems] };
}
