// Every test file starts with every encoder registered, as Node's entries of @z/codecs,
// @z/codecs-wasm and @z/core register them (tests import the packages' sources, which are the
// browser entries: these register none unless asked). Tests of what a program without encoders
// does import fresh module instances (vi.resetModules) instead.
import { enableWasmEncoders } from "@z/codecs-wasm/loaders";

enableWasmEncoders();
