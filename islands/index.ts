import type { ComponentProps, ComponentType } from 'react';
import AutoCreateKb from './AutoCreateKb';
import CategoryView from './CategoryView';
import DocumentEditor from './DocumentEditor';
import ItemHistory from './ItemHistory';
import OpsChat from './OpsChat';
import ServerTable from './ServerTable';
import ShareDialog from './ShareDialog';
import type { Json } from './_lib/json';

export type { Json } from './_lib/json';

/**
 * The island registry: file name = island name. A test checks this matches the files in islands/.
 * Features add their islands here as they land.
 */
export const islands = {
  AutoCreateKb,
  CategoryView,
  DocumentEditor,
  ItemHistory,
  OpsChat,
  ServerTable,
  ShareDialog,
  // `never` props: any component fits, whatever its props (IslandProps reads each one's own).
} satisfies Record<string, ComponentType<never>>;

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = ComponentProps<(typeof islands)[N]> & {
  [key: string]: Json | undefined;
};
