/** JSON-only values: anything else (Date, functions, class instances) is a compile error in island props. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };
