/**
 * The api's shapes as generated from its OpenAPI document (schema.d.ts, `npm run api-types`), and the
 * compile-time check that ties each hand-written shape of this folder to its schema (shapes.ts).
 */
import type { components } from './schema';

export type Schemas = components['schemas'];

/** The schema's fields whose type the document declares (a computed field of the api is `unknown`). */
type Declared<Schema> = {
  [K in keyof Schema as unknown extends Schema[K] ? never : K]-?: Exclude<Schema[K], undefined>;
};

type FieldsOnlyIn<A, B> = Exclude<keyof A, keyof B>;

/** The fields of `Mine` whose type the schema does not accept. */
type Disagreeing<Mine, Schema> = {
  [K in keyof Mine & keyof Declared<Schema>]: Exclude<Mine[K], undefined> extends Declared<Schema>[K] ? never : K;
}[keyof Mine & keyof Declared<Schema>];

/**
 * `true` when a hand-written shape names exactly the schema's fields and every field the document
 * types accepts what the web says; otherwise the offending field names (a type error where checked).
 */
export type Mirrors<Mine, Schema> = [
  FieldsOnlyIn<Mine, Schema> | FieldsOnlyIn<Schema, Mine> | Disagreeing<Mine, Schema>,
] extends [never]
  ? true
  : {
      onlyInWeb: FieldsOnlyIn<Mine, Schema>;
      onlyInApi: FieldsOnlyIn<Schema, Mine>;
      typesDisagree: Disagreeing<Mine, Schema>;
    };

/** `true` when a hand-written shape names exactly the schema's fields (for shapes whose types still differ). */
export type SameFields<Mine, Schema> = [FieldsOnlyIn<Mine, Schema> | FieldsOnlyIn<Schema, Mine>] extends [never]
  ? true
  : { onlyInWeb: FieldsOnlyIn<Mine, Schema>; onlyInApi: FieldsOnlyIn<Schema, Mine> };

/** Compiles only when its argument is `true`. */
export type Check<T extends true> = T;
