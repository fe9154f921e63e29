import { Module } from '@nestjs/common';
import { ErrorReferenceModule } from '../error-reference/read/error-reference-read.module';
import { OperationsModule } from '../operations/operations.module';
import { ToolsModule } from '../listings/read/listings-read.module';
import { DirectoryMcpServer } from './directory-mcp-server';
import { McpHttpController } from './mcp-http.controller';

/**
 * The MCP server: the directory's reads as MCP tools and resources, each a query on the QueryBus answered
 * by the handlers of ToolsModule and ErrorReferenceModule. Over Streamable HTTP at /mcp in the API process; over
 * stdio through `stdio.ts`.
 */
@Module({
  imports: [ToolsModule, ErrorReferenceModule, OperationsModule],
  controllers: [McpHttpController],
  providers: [DirectoryMcpServer],
  exports: [DirectoryMcpServer],
})
export class McpModule {}
