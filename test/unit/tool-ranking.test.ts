import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalResolver } from '../../server/resolve/lexical-resolver.js';
import {
  asksForChange,
  asksQuestion,
  asksToRead,
  requestActionTags,
  toolActionTags,
} from '../../server/resolve/request-actions.js';
import { leadAndRest } from '../../server/text/words.js';
import type { PowerDocument } from '../../server/resolve/types.js';

/** A lexical resolver over these powers. */
function resolverOf(powers: PowerDocument[]): LexicalResolver {
  const resolver = new LexicalResolver();
  resolver.index(powers);
  return resolver;
}

/** The tool the resolver ranks first for the request. */
const firstTool = (resolver: LexicalResolver, request: string) => resolver.rankTools(request)[0]?.name;

/** A terminal power whose process tools' descriptions mention reasoning and logic in passing, as real ones do. */
const terminal: PowerDocument = {
  name: 'terminal',
  description: 'Run commands and manage processes on this computer.',
  keywords: [],
  tools: [
    {
      name: 'interact_with_process',
      description: 'Send input to a running process. Useful for logic checks and careful reasoning in a REPL.',
      destructive: true,
    },
    { name: 'start_search', description: 'Start a search over files. Results can feed later reasoning.' },
    { name: 'kill_process', description: 'Terminate a running process by PID.', destructive: true },
  ],
};

test('a request that asks for no change never gets a destructive tool first, unless it names it', () => {
  const resolver = resolverOf([terminal]);
  const puzzle = resolver.rankTools('help me reason carefully about a tricky logic puzzle').map((c) => c.name);
  assert.equal(puzzle[0], 'terminal:start_search');
  assert.ok(puzzle.indexOf('terminal:interact_with_process') > puzzle.indexOf('terminal:start_search'));
  // The request names the destructive tool's own action: it stays first.
  assert.equal(firstTool(resolver, 'which process to kill'), 'terminal:kill_process');
});

test('a destructive tool is never the only offer for a request that changes nothing', () => {
  const resolver = resolverOf([{ ...terminal, tools: terminal.tools.filter((t) => t.destructive) }]);
  const ranked = resolver.rankTools('careful reasoning about logic');
  assert.ok(
    ranked.every((c) => c.name !== 'terminal:interact_with_process'),
    JSON.stringify(ranked.map((c) => c.name)),
  );
  // Asked for a change, the same words may reach it.
  assert.ok(
    resolver
      .rankTools('send careful reasoning about logic to the process')
      .some((c) => c.name === 'terminal:interact_with_process'),
  );
});

test('a question asks to read: tools that write and that it does not name follow the others', () => {
  const resolver = new LexicalResolver();
  const memory: PowerDocument = {
    name: 'memory',
    description: 'A knowledge graph: remember people and facts.',
    keywords: ['remember'],
    tools: [
      {
        name: 'add_observations',
        description: 'Add observations about people to remember to the graph.',
        writes: true,
      },
      { name: 'open_nodes', description: 'Open nodes of the graph by name.' },
    ],
  };
  resolver.index([memory]);
  assert.equal(firstTool(resolver, 'what do you remember about Alice?'), 'memory:open_nodes');
  // Not a question: the request to remember may be a write.
  assert.equal(firstTool(resolver, 'remember people: Alice moved to Berlin'), 'memory:add_observations');
});

test("a question's verbs name no action: 'what files did the pull request change' is no request to update", () => {
  const resolver = resolverOf([
    {
      name: 'code',
      description: 'Pull requests of a code host.',
      keywords: [],
      tools: [
        {
          name: 'update_pull_request_branch',
          description: 'Update a pull request branch with the latest changes from the base branch.',
          writes: true,
        },
        {
          name: 'get_pull_request_files',
          description: 'Get the files a pull request touches, with their patches and status.',
        },
        { name: 'list_commits', description: 'List commits of a branch.' },
        { name: 'create_issue', description: 'Create an issue.', writes: true },
      ],
    },
  ]);
  const asked = resolver.rankTools('what files did pull request 8 change');
  assert.equal(asked[0].name, 'code:get_pull_request_files');
  assert.ok(asked[0].score > asked[1].score, JSON.stringify(asked));
  assert.equal(
    firstTool(resolver, 'bring the branch of pull request 8 up to date with the latest changes'),
    'code:update_pull_request_branch',
  );
});

test('an imperative that opens with a verb of reading asks to read: tools that write and that it does not name follow', () => {
  const resolver = resolverOf([
    {
      name: 'git',
      description: 'Git repositories.',
      keywords: [],
      tools: [
        // The tool that writes shares more of the request's words than the read does.
        {
          name: 'git_rebase',
          description: 'Rewrite the commit history: show each commit of the history and replay it.',
          writes: true,
        },
        { name: 'git_log', description: 'View the log of commits.' },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'show the commit history'), 'git:git_log');
  // Named, the tool that writes keeps its place.
  assert.equal(firstTool(resolver, 'show the commit history to rebase'), 'git:git_rebase');
});

test('the tool whose name says the action the request asks for goes first', () => {
  const resolver = resolverOf([
    {
      name: 'files',
      description: 'Files and folders.',
      keywords: [],
      tools: [
        {
          name: 'get_recent_calls',
          description: 'Get the recent tool calls. Each lists the notes and the file it touched.',
        },
        { name: 'write_file', description: 'Write content to a file.' },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'save these notes to a file'), 'files:write_file');
  // "called" introduces a name: the request is not about calls.
  assert.equal(firstTool(resolver, 'save these notes to a file called todo.txt'), 'files:write_file');
});

test("a tool's domains are what its own name and first sentence say, not its power's words", () => {
  const resolver = resolverOf([
    {
      name: 'wiki',
      description: 'Pages and comments of a team wiki.',
      keywords: [],
      tools: [
        { name: 'get_page', description: 'Get a page.' },
        { name: 'create_comment', description: 'Create a comment on a page.', writes: true },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'add a comment on the wiki page about the launch'), 'wiki:create_comment');
  // A discussion is the comment tool's domain; the page tool's only by its power's description.
  const ranked = resolver.rankTools('start a discussion thread');
  assert.ok(!ranked.find((c) => c.name === 'wiki:get_page')?.matchedTerms.includes('#social'), JSON.stringify(ranked));
  assert.equal(ranked[0].name, 'wiki:create_comment');
});

test('request actions: verbs by group, stemmed; a request with no verb of change asks for none', () => {
  assert.deepEqual(requestActionTags('save the notes'), ['!write']);
  assert.deepEqual(toolActionTags('git_log', 'View commit history.'), ['!read', '!list']);
  assert.equal(asksForChange('remember that Alice works at Acme'), true);
  assert.equal(asksForChange('everything you stored about the project'), true);
  assert.equal(asksForChange('help me reason about a logic puzzle'), false);
  assert.equal(asksForChange('show the commit history'), false);
  assert.equal(asksQuestion('what files did pull request 8 change?'), true);
  assert.equal(asksQuestion('can you create a page'), false);
  assert.equal(asksToRead('show the commit history'), true);
  assert.equal(asksToRead('please list my open pull requests'), true);
  assert.equal(asksToRead('what do you remember about Alice?'), true);
  // Only the opening verb is the request's action; a read verb beside a change is no read.
  assert.equal(asksToRead('can you get a t-shirt printed with a dinosaur'), false);
  assert.equal(asksToRead('show the diff and then delete the branch'), false);
  assert.equal(asksToRead('help me reason about a logic puzzle'), false);
});

test('a description splits into its first sentence and the rest', () => {
  assert.deepEqual(leadAndRest('  Read a file. Use it when the path is known.\nMore.'), [
    'Read a file.',
    ' Use it when the path is known.\nMore.',
  ]);
  assert.deepEqual(leadAndRest('No full stop'), ['No full stop', '']);
});

test('filler words ("right now", "right away") of a learned request do not pull other requests to its tool', () => {
  const learned = [{ text: 'what time is it in Tokyo right now', weight: 1 }];
  const resolver = resolverOf([
    {
      name: 'clock',
      description: 'Time and time zones.',
      keywords: [],
      learned,
      tools: [
        { name: 'relative_time', description: 'How long ago or ahead a time is from now.', learned },
        { name: 'current_time', description: 'The current time in a time zone.' },
      ],
    },
    {
      name: 'terminal',
      description: 'Run commands on this computer.',
      keywords: [],
      tools: [
        { name: 'list_processes', description: 'List what runs on this computer.' },
        { name: 'start_process', description: 'Start a program.' },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'which processes are using the most memory right now'), 'terminal:list_processes');
});

test("a request that says a tool's own name words asks for that tool, whatever a sibling's longer description mentions", () => {
  const resolver = resolverOf([
    {
      name: 'git',
      description: 'Git for a local repository.',
      keywords: [],
      tools: [
        {
          name: 'git_show',
          description:
            'Show details of a git object (commit, tree, blob, or tag). Displays commit information and the diff of changes introduced.',
        },
        { name: 'git_tag', description: 'Manage tags: list, create, or delete tags.' },
        { name: 'git_commit', description: 'Create a new commit with the staged changes.', writes: true },
      ],
    },
    {
      name: 'browser',
      description: 'A web browser.',
      keywords: [],
      tools: [{ name: 'browser_snapshot', description: 'Take a snapshot of the page.' }],
    },
  ]);
  // git_show's description has both words; git_tag's name is the request's verb.
  assert.equal(firstTool(resolver, 'tag this commit as v1.2.0'), 'git:git_tag');
});

test(
  'a learned request credits its tool only for requests that ask for its kind of action: ' +
    '"close issue #12" does not follow "open an issue"',
  () => {
    const learned = [{ text: 'open an issue on my repo saying the login page crashes', weight: 1 }];
    const tools = [
      { name: 'create_issue', description: 'Create a new issue in a repository.', writes: true },
      { name: 'update_issue', description: 'Update an existing issue in a repository.', writes: true },
      { name: 'get_issue', description: 'Get details of an issue in a repository.' },
    ];
    const power = (withLearned: boolean): PowerDocument => ({
      name: 'code',
      description: 'Issues of a code host.',
      keywords: [],
      tools: tools.map((tool) => (withLearned && tool.name === 'create_issue' ? { ...tool, learned } : tool)),
    });
    const before = new LexicalResolver();
    before.index([power(false)]);
    const after = new LexicalResolver();
    after.index([power(true)]);
    const order = (resolver: LexicalResolver, query: string) =>
      resolver.rankTools(query).map((c) => `${c.name} ${c.score.toFixed(6)}`);
    // Another kind of action: the learned request changes nothing.
    assert.deepEqual(order(after, 'close issue #12 on the repo'), order(before, 'close issue #12 on the repo'));
    // The same kind of action ("open" again) or none named: it still credits its tool.
    assert.equal(firstTool(after, 'open an issue on my repo saying the signup page crashes'), 'code:create_issue');
    assert.equal(firstTool(after, 'issue: the signup page crashes on my repo'), 'code:create_issue');
  },
);

test('"open an issue" asks for the tool that creates one; "open issue #12" for the one that reads it', () => {
  const resolver = resolverOf([
    {
      name: 'code',
      description: 'Issues of a code host.',
      keywords: [],
      tools: [
        { name: 'get_issue', description: 'Get details of a specific issue in a repository.' },
        { name: 'list_issues', description: 'List issues in a repository.' },
        { name: 'create_issue', description: 'Create a new issue in a repository.', writes: true },
        { name: 'update_issue', description: 'Update an existing issue in a repository.', writes: true },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'open an issue on my repo saying the login page crashes'), 'code:create_issue');
  assert.notEqual(firstTool(resolver, 'open issue #12 on my repo'), 'code:create_issue');
});

test('"undo the last commit" asks for the tool that resets, not the one named after commits', () => {
  const resolver = resolverOf([
    {
      name: 'git',
      description: 'Git repositories.',
      keywords: [],
      tools: [
        { name: 'git_commit', description: 'Create a new commit with staged changes in the repository.', writes: true },
        {
          name: 'git_show',
          description:
            'Show details of a git object (commit, tree, blob, or tag). Displays the diff of changes introduced.',
        },
        {
          name: 'git_reset',
          description:
            'Reset current HEAD to specified state. Can be used to unstage files, discard commits, or discard all changes.',
          writes: true,
        },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'undo the last commit but keep the changes'), 'git:git_reset');
});

test('"the last ten commits" asks for the tool that lists commits, not the one that shows one or makes one', () => {
  const resolver = resolverOf([
    {
      name: 'git',
      description: 'Git repositories.',
      keywords: [],
      tools: [
        { name: 'git_commit', description: 'Create a new commit with staged changes in the repository.', writes: true },
        {
          name: 'git_show',
          description:
            'Show details of a git object (commit, tree, blob, or tag). Displays commit information and the diff of changes introduced.',
        },
        {
          name: 'git_log',
          description:
            'View commit history with optional filtering by author, date range, file path, or commit message pattern.',
        },
        { name: 'git_status', description: 'Show the working tree status.' },
      ],
    },
  ]);
  assert.equal(firstTool(resolver, 'show the last ten commits'), 'git:git_log');
});
