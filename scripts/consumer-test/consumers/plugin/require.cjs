// CommonJS loading the ESM-only packages with require() (Node >= 20.19 / 22.12), through each
// export's "default" condition (design-18).
const meta = require("@z/meta");
const metaTesting = require("@z/meta/testing");
const codecs = require("@z/codecs");
const codecsTesting = require("@z/codecs/testing");

for (const [name, value] of Object.entries({
  "@z/meta ZarrError": meta.ZarrError,
  "@z/meta/testing storeContractChecks": metaTesting.storeContractChecks,
  "@z/codecs defineCodec": codecs.defineCodec,
  "@z/codecs/testing checkCodec": codecsTesting.checkCodec,
})) {
  if (typeof value !== "function") throw new Error(`require(): ${name} is ${typeof value}`);
}
console.log("require() loads @z/meta, @z/meta/testing, @z/codecs and @z/codecs/testing");
