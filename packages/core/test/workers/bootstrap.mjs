// Worker threads load their entry before --import hooks apply (Node 20), so a worker running
// TypeScript starts here: register tsx, then import the real entry named in workerData.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
