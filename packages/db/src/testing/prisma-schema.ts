// A small reader of schema.prisma for the schema-parity test: it derives what Prisma would create
// in PostgreSQL (tables, columns, enums, indexes, foreign keys) using Prisma's naming rules, so the
// test compares the migrated database against the schema itself rather than a copied list.
// It understands the subset of the language this repository uses, and throws on anything else.

export interface ExpectedColumn {
  table: string;
  column: string;
  /** `format_type` spelling, e.g. `text`, `timestamp(3) with time zone`, `"UserRole"`, `text[]`. */
  type: string;
  nullable: boolean;
  /** `pg_get_expr` spelling of the default, or null. */
  default: string | null;
}

export interface ExpectedIndex {
  name: string;
  table: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
}

export interface ExpectedForeignKey {
  name: string;
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

export interface ExpectedSchema {
  tables: string[];
  columns: ExpectedColumn[];
  enums: Map<string, string[]>;
  indexes: ExpectedIndex[];
  foreignKeys: ExpectedForeignKey[];
}

interface Field {
  name: string;
  type: string;
  isList: boolean;
  isOptional: boolean;
  attrs: string;
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
  Json: 'jsonb',
};

const REFERENTIAL_ACTIONS: Record<string, string> = {
  Cascade: 'CASCADE',
  SetNull: 'SET NULL',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetDefault: 'SET DEFAULT',
};

function stripComments(source: string): string {
  return source.replace(/\/\/.*$/gm, '');
}

function listArg(text: string, key: string): string[] | undefined {
  const match = new RegExp(`${key}:\\s*\\[([^\\]]*)\\]`).exec(text);
  return match?.[1]?.split(',').map((part) => part.trim()).filter(Boolean);
}

function stringArg(text: string, key: string): string | undefined {
  return new RegExp(`${key}:\\s*"([^"]*)"`).exec(text)?.[1];
}

function parseFields(body: string): { fields: Field[]; blockAttrs: string[] } {
  const fields: Field[] = [];
  const blockAttrs: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('@@')) {
      blockAttrs.push(line);
      continue;
    }
    const match = /^(\w+)\s+(\w+(?:\("[^"]+"\))?)(\[\]|\?)?\s*(.*)$/.exec(line);
    if (!match) throw new Error(`Unsupported schema line: ${line}`);
    const [, name = '', type = '', modifier, attrs = ''] = match;
    fields.push({ name, type, isList: modifier === '[]', isOptional: modifier === '?', attrs });
  }
  return { fields, blockAttrs };
}

function columnType(field: Field, enums: Map<string, string[]>): string {
  let base: string;
  if (enums.has(field.type)) base = `"${field.type}"`;
  else if (field.type.startsWith('Unsupported(')) base = /^Unsupported\("([^"]+)"\)$/.exec(field.type)?.[1] ?? field.type;
  else if (field.type === 'DateTime') {
    base = field.attrs.includes('@db.Timestamptz(3)') ? 'timestamp(3) with time zone' : 'timestamp(3) without time zone';
  } else if (field.type === 'Decimal') {
    const native = /@db\.Decimal\((\d+),\s*(\d+)\)/.exec(field.attrs);
    base = native ? `numeric(${native[1]},${native[2]})` : 'numeric(65,30)';
  } else {
    const scalar = SCALAR_TYPES[field.type];
    if (scalar === undefined) throw new Error(`Unsupported scalar type ${field.type}`);
    base = scalar;
  }
  return field.isList ? `${base}[]` : base;
}

function columnDefault(field: Field, enums: Map<string, string[]>): string | null {
  const match = /@default\((.*?)\)(?:\s+@|\s*$)/.exec(field.attrs);
  if (!match?.[1]) return null;
  const value = match[1].trim();
  const generated = /^dbgenerated\("(.*)"\)$/.exec(value);
  if (generated?.[1]) return generated[1];
  if (value === 'now()') return 'CURRENT_TIMESTAMP';
  if (value === '[]') return `ARRAY[]::${SCALAR_TYPES[field.type] ?? field.type}[]`;
  if (enums.has(field.type)) return `'${value}'::"${field.type}"`;
  if (/^(-?\d+(\.\d+)?|true|false)$/.test(value)) return value;
  throw new Error(`Unsupported default ${value} on ${field.name}`);
}

/** Derives the PostgreSQL objects Prisma would create for `source` (the text of schema.prisma). */
export function expectedSchemaOf(source: string): ExpectedSchema {
  const text = stripComments(source);
  const enums = new Map<string, string[]>();
  for (const [, name = '', body = ''] of text.matchAll(/^enum\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    enums.set(name, body.split('\n').map((line) => line.trim()).filter(Boolean));
  }
  const models = [...text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)].map(([, name = '', body = '']) => {
    const { fields, blockAttrs } = parseFields(body);
    const mapped = blockAttrs.map((attr) => /^@@map\("([^"]+)"\)/.exec(attr)?.[1]).find(Boolean);
    return { name, table: mapped ?? name, fields, blockAttrs };
  });
  const tableOf = new Map(models.map((model) => [model.name, model.table]));

  const schema: ExpectedSchema = { tables: models.map((m) => m.table), columns: [], enums, indexes: [], foreignKeys: [] };
  for (const model of models) {
    const { table } = model;
    for (const field of model.fields) {
      if (tableOf.has(field.type)) {
        const fkColumns = listArg(field.attrs, 'fields');
        if (fkColumns === undefined) continue;
        const onDelete = /onDelete:\s*(\w+)/.exec(field.attrs)?.[1];
        const onUpdate = /onUpdate:\s*(\w+)/.exec(field.attrs)?.[1];
        schema.foreignKeys.push({
          name: `${table}_${fkColumns.join('_')}_fkey`,
          table,
          columns: fkColumns,
          referencedTable: tableOf.get(field.type) ?? '',
          referencedColumns: listArg(field.attrs, 'references') ?? [],
          onDelete: onDelete ? (REFERENTIAL_ACTIONS[onDelete] ?? onDelete) : field.isOptional ? 'SET NULL' : 'RESTRICT',
          onUpdate: onUpdate ? (REFERENTIAL_ACTIONS[onUpdate] ?? onUpdate) : 'CASCADE',
        });
        continue;
      }
      if (field.attrs.includes('@map(')) throw new Error(`@map on ${model.name}.${field.name} is not supported`);
      schema.columns.push({
        table,
        column: field.name,
        type: columnType(field, enums),
        nullable: field.isOptional,
        default: columnDefault(field, enums),
      });
      if (/@id\b/.test(field.attrs)) {
        schema.indexes.push({ name: `${table}_pkey`, table, columns: [field.name], unique: true, primary: true });
      }
      if (/@unique\b/.test(field.attrs)) {
        schema.indexes.push({ name: `${table}_${field.name}_key`, table, columns: [field.name], unique: true, primary: false });
      }
    }
    for (const attr of model.blockAttrs) {
      const kind = /^@@(id|unique|index)\(/.exec(attr)?.[1];
      if (kind === undefined) continue;
      const columns = /^@@\w+\(\[([^\]]*)\]/.exec(attr)?.[1]?.split(',').map((c) => c.trim()) ?? [];
      const suffix = kind === 'id' ? 'pkey' : kind === 'unique' ? 'key' : 'idx';
      const defaultName = kind === 'id' ? `${table}_pkey` : `${table}_${columns.join('_')}_${suffix}`;
      schema.indexes.push({
        name: stringArg(attr, 'map') ?? defaultName,
        table,
        columns,
        unique: kind !== 'index',
        primary: kind === 'id',
      });
    }
  }
  return schema;
}
