import type { ComponentProps, ComponentType } from 'react';
import AutoCreateKb from './AutoCreateKb';
import CategoryView from './CategoryView';
import DocumentEditor from './DocumentEditor';
import OpsChat from './OpsChat';
import ServerTable from './ServerTable';
import VersionHistory from './VersionHistory';

/** JSON-only values: anything else (Date, functions, class instances) is a compile error in island props. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

/**
 * The island registry: file name = island name. A test checks this matches the files in islands/.
 * Features add their islands here as they land.
 */
export const islands = {
  AutoCreateKb,
  CategoryView,
  DocumentEditor,
  OpsChat,
  ServerTable,
  VersionHistory,
} satisfies Record<string, ComponentType<any>>;

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = ComponentProps<(typeof islands)[N]> & {
  [key: string]: Json | undefined;
};
