/** One MCP tool: name, precise description, argument schema, and a run over the API caller. */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ApiCaller } from './api-caller.js';
import { strictArgs } from './args.js';

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject<z.ZodRawShape>;
  run(caller: ApiCaller, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** Defines a tool whose `run` sees its arguments typed from the schema. */
export function defineTool<S extends z.ZodRawShape>(definition: {
  name: string;
  title: string;
  description: string;
  args: S;
  run: (caller: ApiCaller, args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>;
}): Tool {
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: strictArgs(definition.args) as unknown as z.ZodObject<z.ZodRawShape>,
    run: (caller, args) => definition.run(caller, args as z.infer<z.ZodObject<S>>),
  };
}
