/**
 * A gateway killed with SIGKILL mid-burst, as kill-mid-burst.test.ts (two gateways and the CLI on
 * one folder) and postgres-replicas.test.ts (three replicas on PostgreSQL) run it: sessions call
 * `unstable:echo` one after another, one gateway is killed, and every acknowledged call must have
 * exactly one record (the killed gateway's unanswered calls at most one each).
 */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { textOf, waitFor, type HttpGatewayProcess } from './gateway-process.js';

export async function connect(
  gateway: HttpGatewayProcess,
  token = gateway.token,
): Promise<{ client: Client; session: string }> {
  const client = new Client({ name: 'load', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(gateway.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, session: transport.sessionId! };
}

export interface BurstResult {
  acked: number;
  failed: number;
}

/** Calls one after another until `stop()`; counts the acknowledged ones (answered with the echo). */
export function burst(client: Client, label: string, timeout = 15_000) {
  let stopped = false;
  let acked = 0;
  let failed = 0;
  const done = (async () => {
    for (let i = 0; !stopped; i++) {
      try {
        const result = await client.callTool(
          {
            name: 'call_tool_read',
            arguments: { name: 'unstable:echo', args: { text: `${label}-${i}` }, intent: { operation_type: 'read' } },
          },
          undefined,
          { timeout },
        );
        if (textOf(result).includes(`echo: ${label}-${i}`)) acked += 1;
        else failed += 1;
      } catch {
        failed += 1;
        if (failed > 3) return; // the gateway is gone
      }
    }
  })();
  return {
    get acked() {
      return acked;
    },
    async stop(): Promise<BurstResult> {
      stopped = true;
      await done;
      return { acked, failed };
    },
  };
}

export interface BurstSession {
  client: Client;
  session: string;
  /** On the gateway that is killed. */
  killed: boolean;
}

/**
 * Bursts on every session until each has `calls` acknowledged, then `kill()`, then stops them all.
 * Calls to the gateway about to be killed give up after 2 s; the others wait as long as it takes.
 */
export async function killMidBurst(
  sessions: BurstSession[],
  calls: number,
  kill: () => void,
  timeoutMs = 30_000,
): Promise<BurstResult[]> {
  const bursts = sessions.map((s, i) => burst(s.client, `s${i}`, s.killed ? 2_000 : undefined));
  await waitFor(() => bursts.every((b) => b.acked >= calls), timeoutMs, `every session to make ${calls} calls`);
  kill();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return Promise.all(bursts.map((b) => b.stop()));
}

/**
 * Every acknowledged call has exactly one record: on a surviving gateway no call failed and the
 * records are as many as the calls; on the killed one, a call cut by the kill may have been
 * recorded without its answer arriving (at most one record each), and none answered is missing.
 */
export function assertOneRecordPerAcknowledgedCall(
  sessions: BurstSession[],
  results: BurstResult[],
  records: (session: string) => number,
): void {
  const lost: string[] = [];
  sessions.forEach((s, i) => {
    const n = records(s.session);
    const { acked, failed } = results[i]!;
    console.log(
      `session ${i}${s.killed ? ' (killed gateway)' : ''}: ${acked} acknowledged, ${failed} not, ${n} records`,
    );
    if (!s.killed) {
      assert.equal(failed, 0, `session ${i}: a call failed on a surviving gateway`);
      assert.equal(n, acked, `session ${i}: ${n} records for ${acked} acknowledged calls`);
    } else {
      if (n < acked) lost.push(`session ${i}: ${acked - n} acknowledged calls without a record`);
      assert.ok(n <= acked + failed, `killed session ${i}: ${n} records, ${acked} acknowledged, ${failed} not`);
    }
  });
  assert.deepEqual(lost, [], 'the killed gateway committed the record of every call it answered');
}
