/** Every tool, in the order an agent discloses detail: overview, groups, one story, traces, services, logs. */

import { getLogTemplateTool, listLogAlertsTool, searchLogTemplatesTool } from './tools/logs.js';
import { getServiceHealthTool, listServicesTool } from './tools/services.js';
import { getStoryTool } from './tools/story.js';
import { getStoryGroupTool, listStoryGroupsTool } from './tools/story-groups.js';
import { getTraceTool, searchTracesTool } from './tools/traces.js';
import { whatsWrongTool } from './tools/whats-wrong.js';
import type { Tool } from './tool.js';

export const TOOLS: readonly Tool[] = [
  whatsWrongTool,
  listStoryGroupsTool,
  getStoryGroupTool,
  getStoryTool,
  searchTracesTool,
  getTraceTool,
  listServicesTool,
  getServiceHealthTool,
  listLogAlertsTool,
  searchLogTemplatesTool,
  getLogTemplateTool,
];
