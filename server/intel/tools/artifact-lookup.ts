import type { ArtifactRecord, OwnedArtifacts } from '../artifacts/artifact-store.js';

export type Lookup = { ok: true; record: ArtifactRecord; raw: string } | { ok: false; id: string; problem: string };

/** A live artifact with its raw text, or a sentence saying why there is none. */
export async function lookUpArtifact(artifacts: OwnedArtifacts, id: string): Promise<Lookup> {
  const record = await artifacts.get(id);
  if (!record)
    return {
      ok: false,
      id,
      problem: `No stored result '${id}': ids come from a summary's metadata.artifactId or from semantic_search.`,
    };
  const kept = `${Math.round(artifacts.ttlMs / 60_000)} min`;
  if (record.expired)
    return {
      ok: false,
      id,
      problem: `Stored result '${id}' (${record.power}:${record.tool}) has expired (results are kept ${kept}): call the tool again.`,
    };
  const raw = await artifacts.readRaw(id);
  if (raw === undefined)
    return {
      ok: false,
      id,
      problem: `Stored result '${id}' is no longer on disk (evicted to stay under the size cap): call the tool again.`,
    };
  return { ok: true, record, raw };
}

export function ageOf(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}
