/** Which fields hold identifiers an agent may need to act on an item (fetch, open, edit, link). */

const EXACT = new Set([
  'id',
  'uuid',
  'guid',
  'key',
  'sha',
  'hash',
  'name',
  'path',
  'url',
  'uri',
  'href',
  'slug',
  'number',
  'login',
  'email',
  'ref',
  'filename',
  'file',
  'filepath',
  'identifier',
  'handle',
  'username',
  'node_id',
  'oid',
  'digest',
  'tag',
]);
const SUFFIX = /(_id|Id|ID|_ids|Ids|_key|Key|_sha|Sha|_url|Url|URL|_uri|Uri|_path|Path|_name|Name|_number|Number)$/;

export function isIdField(field: string): boolean {
  return EXACT.has(field.toLowerCase()) || SUFFIX.test(field);
}

/** Lower is more important: primary ids first, then names and paths, then links. */
export function idPriority(field: string): number {
  const f = field.toLowerCase();
  if (f === 'id' || f === 'number' || f === 'key' || f === 'uuid' || f === 'sha' || f === 'guid') return 0;
  if (
    f === 'name' ||
    f === 'path' ||
    f === 'filename' ||
    f === 'file' ||
    f === 'slug' ||
    f === 'login' ||
    f === 'email' ||
    f === 'identifier'
  )
    return 1;
  if (/(_id|id|_key|key|_sha|sha|_number|number)$/.test(f)) return 2;
  if (/(_name|name|_path|path)$/.test(f)) return 3;
  if (f === 'url' || f === 'uri' || f === 'href') return 4;
  return 5;
}

/** Fields that make an item readable in one line. */
export const LABEL_FIELDS = [
  'title',
  'name',
  'summary',
  'subject',
  'message',
  'label',
  'displayName',
  'display_name',
  'full_name',
  'description',
  'text',
  'path',
  'filename',
];

const SALIENT =
  /\b(error|errors|fail|failed|failure|fatal|critical|exception|denied|forbidden|timeout|timed out|crash|crashed|panic|broken|invalid|deprecated|vulnerab\w*|security|urgent|blocker|warning)\b|CrashLoopBackOff|ImagePullBackOff|OOMKilled|Evicted|Unhealthy/i;

export function isSalientText(text: string): boolean {
  return SALIENT.test(text);
}
