import { describe, expect, it } from "vitest";
import { defaultRegistry } from "@z/codecs";
import { filterFixtures } from "./python-fixtures.js";

describe("configs as numcodecs 0.11's get_config() writes them", () => {
  for (const { arguments: args, config } of filterFixtures().configs) {
    it(`${config.id}(${JSON.stringify(args)})`, async () => {
      const codec = await defaultRegistry.create({ id: config.id, ...args }, { key: "a/.zarray" });
      const json = codec.toJSON();
      expect(json).toEqual(config);
      expect(Object.keys(json)).toEqual(Object.keys(config));
      // What .zarray stores builds the same codec again.
      expect((await defaultRegistry.create(json)).toJSON()).toEqual(json);
    });
  }
});
