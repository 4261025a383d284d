/** A call task as the tasks extension shows it (the spec's DetailedTask), held by its replica and stored for the others. */
import type { InputRequest } from '@modelcontextprotocol/server';
import type { CallToolResult } from '../../util/mcp-types.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as `tasks/get` answers it (the spec's DetailedTask). */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: CallToolResult;
  error?: { code: number; message: string };
  inputRequests?: Record<string, InputRequest>;
}
