/**
 * The largest config or spell file read by default (the `limits.fileBytes` setting's default): the gateway
 * reads no larger one, the extension edits no larger mcp.json. No imports.
 */
export const DEFAULT_FILE_BYTES = 256 * 1024;
