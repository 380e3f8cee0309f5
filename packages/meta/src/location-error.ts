import { ZarrError } from "./errors.js";

/**
 * A location string that cannot be read, or names a store that cannot be opened here: no opener
 * for it was given, or (`@z/core/node`'s `openLocation`) the package that has it is not installed, which
 * `packageName` then names (`@z/store-zip`, ...).
 */
export class LocationError extends ZarrError {
  /** The package to install (or whose opener to pass) to open this location, when that is the fault. */
  readonly packageName: string | undefined;

  constructor(message: string, options: { packageName?: string; cause?: unknown } = {}) {
    super("ZARR_LOCATION", message, { cause: options.cause });
    this.packageName = options.packageName;
  }
}
