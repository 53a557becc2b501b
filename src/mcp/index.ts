// The MCP server (Model Context Protocol): the sandbox's tools for coding agents. `/mcp` on the server (withMcp,
// streamable HTTP, the caller's key) and `request-sandbox mcp` (stdio). Other rooms import only this file.
export { type McpHttpOptions, withMcp } from './http.ts'
export { runMcpCommand } from './stdio.ts'
