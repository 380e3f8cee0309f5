// CommonJS loading the ESM-only packages with require() (Node >= 20.19 / 22.12), through each
// export's "default" condition (design-18).
const core = require("@z/core");
const coreNode = require("@z/core/node");
const { DirectoryStore } = require("@z/store-fs");
const { ZipStore } = require("@z/store-zip");

for (const [name, value] of Object.entries({
  "@z/core openArray": core.openArray,
  "@z/core/node openLocation": coreNode.openLocation,
  "@z/store-fs DirectoryStore": DirectoryStore,
  "@z/store-zip ZipStore": ZipStore,
})) {
  if (typeof value !== "function") throw new Error(`require(): ${name} is ${typeof value}`);
}
console.log("require() loads @z/core, @z/core/node, @z/store-fs and @z/store-zip");
