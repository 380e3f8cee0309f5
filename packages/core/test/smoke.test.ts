import { expect, it } from "vitest";
import { StoreError } from "@z/meta";
it("resolves workspace packages from source", () => expect(new StoreError("x").code).toBe("ZARR_STORE"));
