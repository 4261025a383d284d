import type { Tool } from '../util/mcp-types.js';
import type { SuspiciousFlag, ToolDiff, ToolReviewInfo } from '../../protocol/records.js';
import type { Store, WriteOp } from '../store/store.js';
import { valueHash } from '../../shared/hash.js';
import type { PinnedTool } from './diff.js';

/** The approved version of a tool: what it may say and take while it is exposed. */
export interface Pin {
  power: string;
  tool: string;
  hash: string;
  definition: PinnedTool;
  approvedAt: number;
}

export type ReviewKind = ToolReviewInfo['kind'];
export type ReviewStatus = ToolReviewInfo['status'];

/** A tool held in quarantine: the approved version (if any), the one its server now offers, and what differs. */
export interface Review {
  power: string;
  tool: string;
  kind: ReviewKind;
  status: ReviewStatus;
  oldHash?: string;
  newHash: string;
  old?: PinnedTool;
  new: PinnedTool;
  diff: ToolDiff;
  suspicious: SuspiciousFlag[];
  seenAt: number;
  decidedAt?: number;
}

interface PinRow {
  power: string;
  tool: string;
  hash: string;
  description: string | null;
  input_schema: string;
  annotations: string | null;
  approved_at: number;
}

interface ReviewRow {
  power: string;
  tool: string;
  kind: ReviewKind;
  status: ReviewStatus;
  old_hash: string | null;
  new_hash: string;
  old_description: string | null;
  new_description: string | null;
  old_schema: string | null;
  new_schema: string;
  old_annotations: string | null;
  new_annotations: string | null;
  diff: string;
  suspicious: string;
  seen_at: number;
  decided_at: number | null;
}

/** Reads and writes pins and reviews in the store (tables `trust_powers`, `tool_pins`, `tool_reviews`). */
export class PinStore {
  constructor(private readonly store: Store) {}

  seen(power: string): boolean {
    return this.store.query('SELECT 1 FROM trust_powers WHERE power = ?', [power]).length > 0;
  }

  pins(power: string): Map<string, Pin> {
    return new Map(
      this.store
        .query<PinRow>('SELECT * FROM tool_pins WHERE power = ?', [power])
        .map((row) => [row.tool, pinFromRow(row)]),
    );
  }

  reviews(power?: string): Review[] {
    const rows = power
      ? this.store.query<ReviewRow>('SELECT * FROM tool_reviews WHERE power = ? ORDER BY power, tool', [power])
      : this.store.query<ReviewRow>('SELECT * FROM tool_reviews ORDER BY power, tool');
    return rows.map(reviewFromRow);
  }

  /** `power:tool` -> status and the hash under review, cheap enough to poll. */
  quarantined(): Map<string, { status: ReviewStatus; newHash: string }> {
    return new Map(
      this.store
        .query<{ power: string; tool: string; status: ReviewStatus; new_hash: string }>(
          'SELECT power, tool, status, new_hash FROM tool_reviews',
        )
        .map((row) => [`${row.power}:${row.tool}`, { status: row.status, newHash: row.new_hash }]),
    );
  }

  write(ops: WriteOp[]): void {
    if (ops.length > 0) this.store.writeMany(ops);
  }
}

export function seenOp(power: string, at: number): WriteOp {
  return { op: 'upsert', table: 'trust_powers', row: { power, first_seen: at } };
}

export function pinOp(power: string, tool: PinnedTool, at: number, hash = toolHash(tool as Tool)): WriteOp {
  return {
    op: 'upsert',
    table: 'tool_pins',
    row: {
      power,
      tool: tool.name,
      hash,
      description: tool.description ?? null,
      input_schema: JSON.stringify(tool.inputSchema ?? { type: 'object' }),
      annotations: tool.annotations ? JSON.stringify(tool.annotations) : null,
      approved_at: at,
    },
  };
}

export function unpinOp(power: string, tool: string): WriteOp {
  return { op: 'delete', table: 'tool_pins', where: { power, tool } };
}

export function reviewOp(review: Review): WriteOp {
  return {
    op: 'upsert',
    table: 'tool_reviews',
    row: {
      power: review.power,
      tool: review.tool,
      kind: review.kind,
      status: review.status,
      old_hash: review.oldHash ?? null,
      new_hash: review.newHash,
      old_description: review.old?.description ?? null,
      new_description: review.new.description ?? null,
      old_schema: review.old ? JSON.stringify(review.old.inputSchema) : null,
      new_schema: JSON.stringify(review.new.inputSchema ?? { type: 'object' }),
      old_annotations: review.old?.annotations ? JSON.stringify(review.old.annotations) : null,
      new_annotations: review.new.annotations ? JSON.stringify(review.new.annotations) : null,
      diff: JSON.stringify(review.diff),
      suspicious: JSON.stringify(review.suspicious),
      seen_at: review.seenAt,
      decided_at: review.decidedAt ?? null,
    },
  };
}

export function dropReviewOp(power: string, tool: string): WriteOp {
  return { op: 'delete', table: 'tool_reviews', where: { power, tool } };
}

function pinFromRow(row: PinRow): Pin {
  return {
    power: row.power,
    tool: row.tool,
    hash: row.hash,
    definition: definition(row.tool, row.description, row.input_schema, row.annotations),
    approvedAt: row.approved_at,
  };
}

function reviewFromRow(row: ReviewRow): Review {
  return {
    power: row.power,
    tool: row.tool,
    kind: row.kind,
    status: row.status,
    ...(row.old_hash ? { oldHash: row.old_hash } : {}),
    newHash: row.new_hash,
    ...(row.old_schema ? { old: definition(row.tool, row.old_description, row.old_schema, row.old_annotations) } : {}),
    new: definition(row.tool, row.new_description, row.new_schema, row.new_annotations),
    diff: JSON.parse(row.diff) as ToolDiff,
    suspicious: JSON.parse(row.suspicious) as SuspiciousFlag[],
    seenAt: row.seen_at,
    ...(row.decided_at ? { decidedAt: row.decided_at } : {}),
  };
}

function definition(name: string, description: string | null, schema: string, annotations: string | null): PinnedTool {
  return {
    name,
    ...(description !== null ? { description } : {}),
    inputSchema: JSON.parse(schema) as Tool['inputSchema'],
    ...(annotations ? { annotations: JSON.parse(annotations) as Tool['annotations'] } : {}),
  };
}

/** One version of a tool as its server offers it (description, input schema, annotations): what a pin holds and the catalog compares. */
export function toolHash(tool: Tool): string {
  return valueHash({
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    annotations: tool.annotations ?? null,
  });
}
