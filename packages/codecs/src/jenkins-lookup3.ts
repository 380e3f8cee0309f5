import { integer, list, nullable } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { checksumCodec, lookup3Hash } from "./checksum32.js";

/**
 * numcodecs `JenkinsLookup3(initval=0, prefix=None)`:
 * `{"id": "jenkins_lookup3", "initval": 0, "prefix": null}`. `initval` seeds the hash (a uint32); `prefix`, bytes hashed before the data
 * but not stored, is given as a list of byte values (numcodecs keeps it as a NumPy array, which has
 * no JSON form of its own).
 */
export const jenkinsLookup3Config = {
  initval: integer({ min: 0, max: 0xffffffff, default: 0 }),
  prefix: nullable(list(integer({ min: 0, max: 255 })), { default: null }),
};

/**
 * numcodecs `JenkinsLookup3` (numcodecs 0.12 and later; not in 0.11): the data followed by Bob Jenkins'
 * lookup3 hash (`hashlittle`, as HDF5 computes it) of `prefix` + data, 4 bytes little-endian.
 */
export const jenkinsLookup3 = defineCodec({
  id: "jenkins_lookup3",
  config: jenkinsLookup3Config,
  create: ({ initval, prefix }) => {
    const head = prefix === null ? undefined : Uint8Array.from(prefix);
    const hash = (data: Uint8Array): number => {
      if (!head) return lookup3Hash(data, initval);
      const all = new Uint8Array(head.length + data.length);
      all.set(head);
      all.set(data, head.length);
      return lookup3Hash(all, initval);
    };
    return checksumCodec("jenkins_lookup3", hash, "end");
  },
});
