import { describe, expect, it } from "vitest";
import { CodecError, defaultRegistry, zlib } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { numcodecsFixtures } from "./numcodecs-fixtures.js";

checkCodec(
  zlib,
  {
    configs: [{ id: "zlib", level: 1 }, { id: "zlib", level: -1 }, { id: "zlib", level: 0 }, { id: "zlib", level: 9 }],
    encoded: numcodecsFixtures("zlib"),
    boundedDecode: true,
  },
  { describe, it },
);
