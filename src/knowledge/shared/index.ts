/**
 * The knowledge feature's browser-safe module (no zod, no server code): the item model that the server, its
 * views and the islands share. Other features and islands import it from here.
 */
export * from './delete-question';
export * from './diff';
export * from './editor';
export * from './form-markdown';
export * from './form-model';
export * from './item-fields';
export * from './item-types';
export * from './options';
export * from './preview';
export * from './review-interval';
export * from './proposal';
export * from './shares';
export * from './skeletons';
export * from './slug';
export * from './spaces';
