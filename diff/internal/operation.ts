import type { OperationRef } from '../glossary.ts';
import type { Node } from './description.ts';

/** One HTTP operation of a dereferenced description, matched across versions by method and path. */
export interface Operation {
  readonly ref: Extract<OperationRef, { kind: 'operation' }>;
  readonly node: Node;
  readonly parameters: Node[];
  readonly path: string;
}
