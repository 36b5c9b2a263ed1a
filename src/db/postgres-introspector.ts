import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema on the server, and its migrator
 * uses it at every start. When another schema is dropped at that moment (other apps or test runs
 * sharing the server), the catalogue query fails ("schema … does not exist"). This one looks only at
 * the connection's current schema, which is all the migrator needs.
 */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: introspection works on any table types
  readonly #db: Kysely<any>;

  // biome-ignore lint/suspicious/noExplicitAny: introspection works on any table types
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.#db);
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      table_name: string;
      table_schema: string;
      table_type: string;
      column_name: string | null;
      data_type: string | null;
      is_nullable: string | null;
      column_default: string | null;
    }>`
      select t.table_name, t.table_schema, t.table_type, c.column_name, c.data_type, c.is_nullable, c.column_default
      from information_schema.tables t
      left join information_schema.columns c
        on c.table_schema = t.table_schema and c.table_name = t.table_name
      where t.table_schema = current_schema()
      order by t.table_name, c.ordinal_position`.execute(this.#db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table_name.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table_name);
      if (!table) {
        table = {
          name: row.table_name,
          schema: row.table_schema,
          isView: row.table_type === 'VIEW',
          isForeign: row.table_type === 'FOREIGN',
          columns: [],
        };
        tables.set(row.table_name, table);
      }
      if (row.column_name) {
        table.columns.push({
          name: row.column_name,
          dataType: row.data_type ?? 'unknown',
          isNullable: row.is_nullable === 'YES',
          hasDefaultValue: row.column_default !== null,
          isAutoIncrementing: row.column_default?.startsWith('nextval(') ?? false,
        });
      }
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions) {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect with the current-schema introspector. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: introspection works on any table types
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
