/**
 * Two replicas' views of one modern user's session on one store (real SQLite; each replica with its
 * own session registry and steering log, as two processes have): what one changes, the other adopts
 * on its next request (active powers, guidance given, hint context), a change of its own not yet written is
 * kept, and an idle-closed session adopts everything again. Activation here only marks the power active (the
 * real one also starts its child, which the integration test modern-replicas covers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionRegistry } from '../../server/gateway/sessions/session-registry.js';
import { SharedUserState } from '../../server/gateway/sessions/shared-user-state.js';
import { SteeringLog } from '../../server/gateway/steering.js';
import { SessionContexts } from '../../server/hints/session-context.js';
import type { Store } from '../../server/store/store-interface.js';
import { tempStore } from '../helpers/temp-store.js';

const ID = 'modern:alice';

function replica(store: Store) {
  const sessions = new SessionRegistry(() => ({ maxConcurrent: 10, maxPerClient: 10, idleMinutes: 60 }));
  const steering = new SteeringLog();
  const hints = { sessions: new SessionContexts() };
  const state = new SharedUserState({
    store,
    sessions,
    steering,
    hints,
    activate: async (name, sessionId) => (sessions.state(sessionId!).active.add(name), []),
    deactivate: async (name, sessionId) => void sessions.state(sessionId!).active.delete(name),
  });
  sessions.open(ID, undefined, true, 'alice');
  const active = () => [...sessions.state(ID).active].sort();
  return { sessions, steering, hints, state, active };
}

test(
  'a user session state written by one replica is adopted by another; ' +
    'unwritten local changes and other users are left alone',
  async (t) => {
    const { store } = await tempStore(t);
    const a = replica(store);
    const b = replica(store);
    t.after(() => (a.sessions.dispose(), b.sessions.dispose()));

    let before = a.state.snapshot(ID);
    a.sessions.state(ID).active.add('memory');
    a.steering.markGiven(ID, 'memory#abc');
    a.hints.sessions.get(ID).complete('memory:search_nodes');
    assert.equal(a.hints.sessions.get(ID).firstSuggestion('memory:create_entities'), true);
    await a.state.record(ID, before);

    await b.state.adopt(ID);
    assert.deepEqual(b.active(), ['memory'], 'the power activated on A is active on B');
    assert.equal(b.steering.given(ID, 'memory#abc'), true, 'the guidance given on A counts as given on B');
    assert.equal(
      b.hints.sessions.get(ID).hasCompleted('memory:search_nodes'),
      true,
      'a tool completed on A counts on B',
    );
    assert.equal(
      b.hints.sessions.get(ID).firstSuggestion('memory:create_entities'),
      false,
      'a prerequisite suggested on A is not suggested again on B',
    );
    assert.equal(b.steering.given('modern:bob', 'memory#abc'), false, "another user's session is not touched");
    assert.equal(b.hints.sessions.get('modern:bob').hasCompleted('memory:search_nodes'), false);

    // B has a power of its own not written yet (a call in flight): adopting keeps it.
    b.sessions.state(ID).active.add('files');
    await b.state.adopt(ID);
    assert.deepEqual(b.active(), ['files', 'memory']);

    before = a.state.snapshot(ID);
    a.sessions.state(ID).active.delete('memory');
    await a.state.record(ID, before);
    await b.state.adopt(ID);
    assert.deepEqual(b.active(), ['files'], 'deactivated on A, so on B');

    // B's session was closed for idleness and opened again: everything stored is adopted again.
    before = a.state.snapshot(ID);
    a.sessions.state(ID).active.add('sqlite');
    await a.state.record(ID, before);
    await b.state.adopt(ID);
    b.sessions.close(ID);
    b.sessions.open(ID, undefined, true, 'alice');
    b.state.opened(ID);
    await b.state.adopt(ID);
    assert.deepEqual(b.active(), ['sqlite'], 'the reopened session has the stored powers again');
  },
);
