/** Strings from a client or a file, cut to a short preview before they are echoed in a message or an answer. */

export const PREVIEW_CHARS = 100;

/** `text` itself when short; else its first `max` characters, an ellipsis and the full length. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length.toLocaleString('en-US')} characters)`;
}

/** A byte count for messages: "512 KB", "11.0 MB". */
export function byteSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
