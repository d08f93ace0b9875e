import type { CurrentUser } from '../auth/schemas';
import type { Db } from '../db/client';
import type { Logger } from '../http/logger';

/** Who an MCP request acts for (the owner of its token), and what its tools and resources read with. */
export interface McpAsker {
  db: Db;
  user: CurrentUser;
  logger: Logger;
}
