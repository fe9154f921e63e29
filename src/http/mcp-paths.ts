/** Where the MCP endpoint answers; the public directory advertises its own at /.well-known/mcp and serves it at /api/mcp. */
export const MCP_PATH = 'mcp';
export const WELL_KNOWN_MCP_PATH = '.well-known/mcp';
export const PUBLIC_DIRECTORY_MCP_PATH = 'api/mcp';

/** The MCP server's tools by name: the server defines each under one of these, and the discovery files list them. */
export const MCP_TOOL_NAMES = ['search_tools', 'get_tool', 'compare_tools', 'list_categories', 'list_tools', 'get_errors', 'search_models', 'get_model', 'compare_models'] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];
