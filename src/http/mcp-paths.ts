/** Where the MCP endpoint answers; the public directory advertises its own at /.well-known/mcp and serves it at /api/mcp. */
export const MCP_PATH = 'mcp';
export const WELL_KNOWN_MCP_PATH = '.well-known/mcp';
export const PUBLIC_DIRECTORY_MCP_PATH = 'api/mcp';
