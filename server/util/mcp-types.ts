/**
 * MCP's wire types for the whole server, from the SDK line the gateway ships with: types only, this
 * module loads nothing. `@modelcontextprotocol/core` exports only the zod schemas; their types are
 * public in `@modelcontextprotocol/server` (and `client`, the same declarations).
 */
export type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  JSONRPCMessage,
  LoggingMessageNotification,
  Prompt,
  ReadResourceResult,
  Resource,
  // The SDK's `ResourceTemplate` is McpServer's template class; the wire type carries this name.
  ResourceTemplateType as ResourceTemplate,
  Tool,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
