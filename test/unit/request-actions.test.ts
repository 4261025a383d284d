import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForChange, asksToRead, requestActionTags, toolActionTags } from '../../server/resolve/request-actions.js';

test('a noun that only stems like a verb is no action: "list my settings" and "show the logs" ask to read, nothing to set or write', () => {
  for (const query of ['list my settings', 'show the logs', 'what are the logs']) {
    assert.equal(asksForChange(query), false, query);
    assert.equal(asksToRead(query), true, query);
    assert.ok(
      !requestActionTags(query).some((tag) => tag === '!update' || tag === '!write'),
      `${query}: ${requestActionTags(query).join(', ')}`,
    );
  }
});

test('a verb counts as written and in its participles: "stored" and "creating" ask for a change', () => {
  assert.deepEqual(requestActionTags('save these notes'), ['!write']);
  assert.deepEqual(requestActionTags('I stored the notes'), requestActionTags('store the notes'));
  assert.equal(asksForChange('creating a new branch'), true);
});

test('a verb that is as often a noun names an action only where a verb stands: "show the git log" reads, "log my hours" writes', () => {
  for (const query of [
    'show the git log',
    'list the new issues',
    'get the status of the last build',
    'find the record for order 12',
    'show the latest blog post',
  ]) {
    assert.equal(asksForChange(query), false, query);
    assert.equal(asksToRead(query), true, query);
  }
  assert.deepEqual(requestActionTags('log my hours'), ['!write']);
  assert.deepEqual(requestActionTags('I want to record a sale'), ['!write']);
  assert.deepEqual(requestActionTags('can you post it to the channel'), ['!write']);
  assert.equal(asksForChange('everything you logged yesterday'), true);
});

test("a tool is tagged by its name's verb: first when it is as often a noun, else by the verb its description opens with", () => {
  assert.deepEqual(toolActionTags('git_log', 'View commit history.'), ['!read', '!list']);
  assert.deepEqual(toolActionTags('get_record', 'Get one record.'), ['!read']);
  assert.deepEqual(toolActionTags('get_workflow_run', ''), ['!read']);
  assert.deepEqual(toolActionTags('log_event', 'Record an event.'), ['!write']);
  assert.deepEqual(toolActionTags('git_set_working_dir', 'Set the working directory.'), ['!update']);
  assert.deepEqual(toolActionTags('entry', 'Creates an entry.'), ['!create']);
  assert.deepEqual(toolActionTags('API-post-page', 'Notion | Create a page', 'notion'), ['!create']);
  // A light verb carries no action: the noun after it does.
  assert.deepEqual(toolActionTags('edit_file', 'Make line-based edits to a text file.'), ['!update']);
  assert.deepEqual(toolActionTags('browser_take_screenshot', 'Take a screenshot of the current page.'), []);
});

test(
  'a verb in a clause about what the request names is no action of the request: ' +
    '"add a note that she moved" creates, it moves nothing',
  () => {
    assert.deepEqual(requestActionTags("add a note to Carol's entry that she moved to Berlin"), ['!create']);
    assert.deepEqual(requestActionTags('delete the files that were modified'), ['!delete']);
    assert.deepEqual(requestActionTags('find the file that has the notes and delete it'), ['!find', '!delete']);
  },
);

test('a request to keep a fact asks to create or write it, whatever its verb ("remember that...", "save that...")', () => {
  assert.deepEqual(requestActionTags('remember that Alice works at Acme').sort(), ['!create', '!write']);
  assert.deepEqual(requestActionTags('save that the build is green').sort(), ['!create', '!write']);
  assert.deepEqual(requestActionTags('show the notes that Alice wrote'), ['!read']);
});

test('an everyday verb of change in another form asks for a change only where a verb stands: "the closed issues" are read', () => {
  for (const query of ['show me the closed issues', 'list the stopped containers']) {
    assert.equal(asksForChange(query), false, query);
    assert.equal(asksToRead(query), true, query);
  }
  assert.equal(asksForChange('I stopped the server, start it again'), true);
  assert.equal(asksForChange('kill the stuck process'), true);
});

test(
  '"open" before an indefinite article creates ("open an issue", "open a new tab"); ' +
    'before what exists it reads ("open the file")',
  () => {
    assert.deepEqual(requestActionTags('open an issue on my repo saying the login page crashes'), ['!create']);
    assert.deepEqual(requestActionTags('please open a new tab'), ['!create']);
    assert.equal(asksForChange('open an issue about the crash'), true);
    assert.equal(asksToRead('open an issue about the crash'), false);
    for (const query of ['open the file notes.txt', 'open issue #12', 'open my downloads folder']) {
      assert.deepEqual(requestActionTags(query), ['!read'], query);
      assert.equal(asksToRead(query), true, query);
    }
    assert.deepEqual(toolActionTags('browser_tab_new', 'Open a new tab.'), ['!create']);
    assert.deepEqual(toolActionTags('open_nodes', 'Open specific nodes by name.'), ['!read']);
  },
);

test(
  'undoing is an action of its own: "undo the last commit" and "revert it" ask for a change, ' +
    'matched by a tool that resets or reverts',
  () => {
    assert.deepEqual(requestActionTags('undo the last commit but keep the changes'), ['!undo']);
    assert.deepEqual(requestActionTags('please revert the config'), ['!undo']);
    assert.equal(asksForChange('roll back: rollback the deploy'), true);
    assert.deepEqual(toolActionTags('git_reset', 'Reset current HEAD to specified state.'), ['!undo']);
    // "reset" is as often a noun: in a name after another word it is what the tool is about.
    assert.deepEqual(toolActionTags('get_reset', 'Get the last reset time.'), ['!read']);
    assert.equal(asksToRead('show the last reset'), true);
  },
);

test('a number of things asks for a listing ("the last ten commits"), a span of time does not ("the last 7 days")', () => {
  assert.deepEqual(requestActionTags('show the last ten commits').sort(), ['!list', '!read']);
  assert.ok(requestActionTags('get my 5 open issues').includes('!list'));
  for (const query of [
    'show the commit from 2 days ago',
    'what changed in the last 7 days',
    'show commit 1 of the branch',
    'delete the last ten commits',
  ]) {
    assert.ok(!requestActionTags(query).includes('!list'), query);
  }
  assert.ok(toolActionTags('git_log', 'View commit history.').includes('!list'));
  assert.ok(toolActionTags('list_commits', 'Get commits of a branch.').includes('!list'));
  assert.ok(!toolActionTags('git_show', 'Show details of a git object.').includes('!list'));
});
