import { ZarrError } from "@z/meta";

// Apart from errors.ts, which every page loads: only migrating needs it (index-constants.ts exports it).
/**
 * A migration between formats (`migrateToV3`, `removeMetadata`) that cannot be made as asked: a
 * node that is not of the format migrated from, a document already there, a codec zarr-python 3
 * has no v3 codec for (or one of the wrong kind), metadata whose removal would leave a node
 * without any. Raised before anything is written or removed.
 */
export class MigrationError extends ZarrError {
  /** The member of the document that cannot be migrated (`compressor`, `filters[1]`, `dtype`), when one is to blame. */
  readonly field: string | undefined;
  /** The codec that cannot be migrated, when it is a codec. */
  readonly codecId: string | undefined;
  constructor(message: string, options: { key?: string; field?: string; codecId?: string } = {}) {
    super("ZARR_MIGRATION", message, { key: options.key });
    this.field = options.field;
    this.codecId = options.codecId;
  }
}
