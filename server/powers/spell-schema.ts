/** The spell file format (`<name>.spell.yaml`): the one definition the loader, the docs and the editor's validation share. */
import { z } from 'zod';
import { preview } from '../../shared/preview.js';

const FIX = ' Fix: ';

/** Every schema message is `<what is wrong>. Fix: <how to fix it>`; the loader splits the two. */
function say(problem: string, fix: string): string {
  return `${problem}.${FIX}${fix}`;
}

export function splitMessage(message: string): { message: string; fix: string } {
  const at = message.indexOf(FIX);
  if (at < 0) return { message, fix: 'see the spell file reference' };
  return { message: message.slice(0, at).replace(/\.$/, ''), fix: message.slice(at + FIX.length) };
}

function kind(input: unknown): string {
  if (input === null || input === undefined) return 'nothing';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'a mapping';
  return `a ${typeof input}`;
}

function chars(input: unknown): string {
  return `${String(input).length.toLocaleString('en-US')} characters`;
}

function count(input: unknown): string {
  const n = Array.isArray(input) ? input.length : 0;
  return n === 1 ? '1 entry' : `${n} entries`;
}

function text(field: string, fix: string) {
  return z.string({
    error: (iss) =>
      iss.input === undefined
        ? say(`${field} is missing`, fix)
        : say(
            `${field} must be text, got ${kind(iss.input)}`,
            `write it as text, in quotes if it looks like a number or true/false, e.g. ${field.split(' ').pop()}: "..."`,
          ),
  });
}

function stringList(field: string, fix: string) {
  return z.array(text(`every entry of ${field}`, fix), {
    error: (iss) =>
      say(
        `${field} must be a list of strings, got ${kind(iss.input)}`,
        `write it as a YAML list, e.g. ${field}: [a, b]`,
      ),
  });
}

function stringMap(field: string, example: string) {
  return z.record(z.string(), text(`every value of ${field}`, `quote the value, e.g. ${example}`), {
    error: (iss) =>
      say(
        `${field} must be a mapping of names to strings, got ${kind(iss.input)}`,
        `write it as key: value lines, e.g. ${example}`,
      ),
  });
}

function flag(field: string) {
  return z
    .boolean({
      error: (iss) =>
        say(`${field} must be true or false, got ${kind(iss.input)}`, `write ${field}: true or ${field}: false`),
    })
    .optional();
}

function mapping<T extends z.ZodRawShape>(field: string, shape: T, fix: string) {
  return z.object(shape, { error: (iss) => say(`${field} must be a mapping, got ${kind(iss.input)}`, fix) });
}

const stdioServer = z.looseObject({
  transport: z
    .literal('stdio')
    .optional()
    .default('stdio')
    .describe('stdio (the default): Grimoire starts `command` and talks to it over stdin/stdout.'),
  command: text('server.command', 'add the program that starts the MCP server, e.g. command: npx')
    .min(1, say('server.command is empty', 'add the program that starts the MCP server, e.g. command: npx'))
    .describe(
      'The program that starts the MCP server, on PATH or as a full path, e.g. npx, uvx, node. `${VAR}` is expanded.',
    ),
  args: stringList('server.args', 'quote each argument')
    .default([])
    .describe('Its arguments, one list entry each, e.g. ["-y", "@modelcontextprotocol/server-memory"].'),
  env: stringMap('server.env', 'GITHUB_TOKEN: ${GITHUB_TOKEN}')
    .default({})
    .describe('Environment variables for the server, e.g. GITHUB_TOKEN: ${GITHUB_TOKEN} (read from your environment).'),
  cwd: text('server.cwd', 'give the folder the server starts in')
    .optional()
    .describe('The folder the server starts in.'),
});

const remoteServer = z.looseObject({
  transport: z.enum(['http', 'sse']).describe('http (Streamable HTTP) or sse: a remote MCP server at `url`.'),
  url: text('server.url', 'add the endpoint of the MCP server, e.g. url: https://example.com/mcp')
    .min(1, say('server.url is empty', 'add the endpoint of the MCP server, e.g. url: https://example.com/mcp'))
    .describe('The endpoint of the remote MCP server, e.g. https://example.com/mcp.'),
  headers: stringMap('server.headers', 'Authorization: Bearer ${API_TOKEN}')
    .default({})
    .describe('HTTP headers sent with every request, e.g. Authorization: Bearer ${API_TOKEN}.'),
});

export const serverSchema = z
  .discriminatedUnion('transport', [stdioServer, remoteServer], {
    error: (iss) =>
      iss.input === undefined
        ? say('server is missing', 'add server: with command (stdio) or transport: http|sse and url')
        : typeof iss.input !== 'object' || iss.input === null || Array.isArray(iss.input)
          ? say(
              `server must be a mapping, got ${kind(iss.input)}`,
              'give server: with command (stdio) or transport: http|sse and url',
            )
          : say(
              `server.transport ${JSON.stringify((iss.input as { transport?: unknown }).transport)} is not supported`,
              'use transport: stdio (with command), http or sse (with url)',
            ),
  })
  .describe('How to start or reach the MCP server: stdio (command) or http / sse (url).');

/** Keys each server variant understands; other keys are reported as likely typos. */
export const serverKeys = {
  stdio: ['transport', 'command', 'args', 'env', 'cwd'],
  remote: ['transport', 'url', 'headers'],
} as const;

const toolHints = mapping(
  'each hints entry',
  {
    prerequisites: stringList('prerequisites', 'list tool names that must run first')
      .optional()
      .describe(
        'Tools of this power the agent should call first; until they ran in the session, the call is answered with a suggestion.',
      ),
    next_actions: stringList('next_actions', 'list tool names that usually follow')
      .optional()
      .describe('Tools that usually follow; suggested with the result.'),
    error_hints: stringMap('error_hints', '"not found": "check the path with list_directory first"')
      .optional()
      .describe('Text found in an error -> advice added to that error for the agent.'),
    audit: flag('audit').describe('true: every call of this tool is marked for audit in the activity log.'),
  },
  'write the tool name, then prerequisites / next_actions / error_hints / audit under it',
);

const toolAnnotations = mapping(
  'each annotations entry',
  {
    readOnlyHint: flag('readOnlyHint').describe('true: the tool only reads (callable with call_tool_read).'),
    destructiveHint: flag('destructiveHint').describe(
      'true: the tool may delete or overwrite (needs call_tool_destructive).',
    ),
    idempotentHint: flag('idempotentHint').describe(
      'true: calling it again with the same arguments changes nothing more.',
    ),
    openWorldHint: flag('openWorldHint').describe('true: the tool reaches outside systems (the web, other services).'),
  },
  'write the tool name, then readOnlyHint / destructiveHint / idempotentHint / openWorldHint: true|false under it',
);

const toolCache = mapping(
  'each cache entry',
  {
    ttlSeconds: z
      .number({ error: (iss) => say(`ttlSeconds must be a number, got ${kind(iss.input)}`, 'write ttlSeconds: 60') })
      .int(say('ttlSeconds must be a whole number', 'write ttlSeconds: 60'))
      .positive(
        say('ttlSeconds must be above 0', 'write ttlSeconds: 60, or remove the entry to always call the server'),
      ),
  },
  'write the tool name, then ttlSeconds: N under it',
);

const NAME_FIX = 'use lowercase letters, digits and "-" only, e.g. name: github-issues';
export const NAME_MAX = 64;
const DESCRIPTION_MAX = 2000;
const KEYWORD_MAX = 64;
const KEYWORDS_FIX = 'list 3 to 20 words a user might say when they need this power';

export const spellSchema = z
  .looseObject({
    name: text('name', NAME_FIX)
      .max(NAME_MAX, {
        error: (iss) =>
          say(
            `name has ${(iss.input as string).length} characters; the limit is ${NAME_MAX}`,
            'choose a shorter name, e.g. name: github-issues',
          ),
      })
      .regex(/^[a-z0-9-]+$/, {
        error: (iss) =>
          say(
            `name ${JSON.stringify(preview(iss.input as string))} has characters other than a-z, 0-9 and "-"`,
            NAME_FIX,
          ),
      })
      .describe(
        `Power name: lowercase letters, digits and "-", at most ${NAME_MAX} characters. The file should be <name>.spell.yaml.`,
      ),
    version: text('version', 'add a version, e.g. version: 1.0.0').describe('Version of the spell, e.g. 1.0.0.'),
    description: text('description', 'say in one sentence what the power does')
      .min(1, say('description is empty', 'say in one sentence what the power does'))
      .max(DESCRIPTION_MAX, {
        error: (iss) =>
          say(
            `description has ${chars(iss.input)}; the limit is ${DESCRIPTION_MAX}`,
            'say in a sentence or two what the power does; put guidance in steering',
          ),
      })
      .describe(
        `One or two sentences on what the power does; intent resolution matches against it. At most ${DESCRIPTION_MAX} characters.`,
      ),
    keywords: z
      .array(
        text('every keyword', 'write each keyword as a word').max(KEYWORD_MAX, {
          error: (iss) =>
            say(
              `a keyword has ${chars(iss.input)}; the limit is ${KEYWORD_MAX}`,
              'write each keyword as a word or a short phrase',
            ),
        }),
        {
          error: (iss) =>
            say(
              iss.input === undefined ? 'keywords is missing' : `keywords must be a list, got ${kind(iss.input)}`,
              KEYWORDS_FIX,
            ),
        },
      )
      .min(3, { error: (iss) => say(`keywords has ${count(iss.input)}; at least 3 are needed`, KEYWORDS_FIX) })
      .max(20, {
        error: (iss) =>
          say(`keywords has ${count(iss.input)}; at most 20 are allowed`, 'keep the 20 most specific keywords'),
      })
      .describe(`3 to 20 words a user might say when they need this power, each at most ${KEYWORD_MAX} characters.`),
    steering: text('steering', 'write the guidance as a YAML block: steering: |')
      .max(5000, {
        error: (iss) =>
          say(
            `steering has ${(iss.input as string).length} characters; the limit is 5000`,
            'keep the essential guidance and move reference material elsewhere',
          ),
      })
      .optional()
      .describe('Expert guidance (Markdown) appended to every tool of the power. At most 5000 characters.'),
    server: serverSchema,
    hints: z
      .record(z.string(), toolHints, {
        error: (iss) =>
          say(
            `hints must be a mapping of tool names, got ${kind(iss.input)}`,
            'write hints: then one tool name per line with its hints under it',
          ),
      })
      .optional()
      .describe('Per-tool hints: prerequisites, next actions, error hints, audit.'),
    annotations: z
      .record(z.string(), toolAnnotations, {
        error: (iss) =>
          say(
            `annotations must be a mapping of tool names, got ${kind(iss.input)}`,
            'write annotations: then one tool name per line with its overrides under it',
          ),
      })
      .optional()
      .describe('Per-tool overrides of the MCP tool annotations.'),
    cache: z
      .record(z.string(), toolCache, {
        error: (iss) =>
          say(
            `cache must be a mapping of tool names, got ${kind(iss.input)}`,
            'write cache: then one tool name per line with ttlSeconds: N under it',
          ),
      })
      .optional()
      .describe(
        'Per-tool opt-in to answer identical calls from the result cache for ttlSeconds (by default every call reaches the server).',
      ),
    when: mapping(
      'when',
      {
        workspace_contains: stringList('when.workspace_contains', 'list file names or globs, e.g. [package.json]')
          .optional()
          .describe(
            'Offer the power only in a workspace with one of these files (a path or a * glob), e.g. [package.json].',
          ),
      },
      'write when: with workspace_contains: [file, ...] under it',
    )
      .optional()
      .describe('Workspace conditions under which the power is offered.'),
  })
  .describe('A Grimoire spell: one MCP server (a power) with its description, keywords and steering.');

export const spellKeys = Object.keys(spellSchema.shape);

export type SpellFile = z.output<typeof spellSchema>;
export type SpellExtensions = Pick<SpellFile, 'hints' | 'annotations' | 'cache' | 'when'>;

/** JSON Schema (draft 2020-12) of the spell file as written, for editor validation. */
export function spellJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(spellSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
