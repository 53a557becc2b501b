// The MCP server (Model Context Protocol): the sandbox's tools for coding agents. `/mcp` on the server (withMcp,
// streamable HTTP, the caller's key) and `request-sandbox mcp` (stdio). Other rooms import only this file.
export { type ApiCall, dispatchApi, fetchApi } from './api.ts'
export { MCP_DEFAULTS, MCP_PATH, type McpHttpOptions, type McpTarget, withMcp } from './http.ts'
export { MCP_USAGE, runMcpCommand, type StartOwn } from './stdio.ts'
export { buildMcpServer } from './tools.ts'
